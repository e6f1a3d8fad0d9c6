import threading


class Queue:
    def __init__(self):
        self._items = []
        self._lock = threading.Lock()

    def put(self, item):
        with self._lock:
            self._items.append(item)

    def __len__(self):
        return len(self._items)
