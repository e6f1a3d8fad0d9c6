import threading

from stream.queue import Queue


def test_many_writers():
    q = Queue()
    threads = [threading.Thread(target=lambda: [q.put(i) for i in range(100)]) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(q) == 800
