import threading

import pytest

from tinyml.stream.queue import Closed, WorkQueue


def test_fifo_then_closed():
    q = WorkQueue()
    for i in range(3):
        q.put(i)
    q.close()
    assert [q.get(), q.get(), q.get()] == [0, 1, 2]
    with pytest.raises(Closed):
        q.get()
    with pytest.raises(Closed):
        q.put(3)


def test_timeouts():
    q = WorkQueue(maxsize=1)
    with pytest.raises(TimeoutError):
        q.get(timeout=0.01)
    q.put("a")
    with pytest.raises(TimeoutError):
        q.put("b", timeout=0.01)


def test_close_wakes_blocked_consumer():
    q, outcome = WorkQueue(), []

    def consume():
        try:
            q.get(timeout=5)
        except Exception as exc:  # record it; asserting in a thread would be lost
            outcome.append(type(exc))

    t = threading.Thread(target=consume)
    t.start()
    q.close()
    t.join(timeout=5)
    assert outcome == [Closed]


def test_many_producers_and_consumers_see_each_item_once():
    q = WorkQueue(maxsize=8)
    seen, lock = [], threading.Lock()

    def produce(base):
        for i in range(250):
            q.put(base + i)

    def consume():
        while True:
            try:
                item = q.get(timeout=5)
            except Closed:
                return
            with lock:
                seen.append(item)

    producers = [threading.Thread(target=produce, args=(b * 1000,)) for b in range(4)]
    consumers = [threading.Thread(target=consume) for _ in range(4)]
    for t in producers + consumers:
        t.start()
    for t in producers:
        t.join(timeout=10)
    q.close()
    for t in consumers:
        t.join(timeout=10)
    assert sorted(seen) == [b * 1000 + i for b in range(4) for i in range(250)]
