# Outside the gate's scope (tests/gpu), but it imports the stream code: a change there
# stresses it.
import os
import threading

from stream.queue import Queue


def test_readers_and_writers_under_load():
    assert os.environ.get("GATEKIT_STRESS") == "1", "only the stress pass runs this file"
    q = Queue()
    threads = [threading.Thread(target=lambda: [q.put(i) for i in range(50)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(q) == 200
