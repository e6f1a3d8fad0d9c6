"""A small thread-safe FIFO work queue.

Contract:
- Any number of producer and consumer threads may share one WorkQueue.
- Every item ``put()`` before ``close()`` is returned by exactly one ``get()``.
- After ``close()``: ``put()`` raises Closed; ``get()`` keeps returning the
  remaining items, then raises Closed (so consumers can loop until Closed).
- ``maxsize > 0`` bounds the queue: ``put()`` blocks while it is full.
- ``timeout`` (seconds) on put/get raises TimeoutError when it expires.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any


class Closed(Exception):
    """The queue is closed (and, for get(), drained)."""


class WorkQueue:
    def __init__(self, maxsize: int = 0) -> None:
        self._items: deque[Any] = deque()
        self._maxsize = maxsize
        self._closed = False
        lock = threading.Lock()
        self._not_empty = threading.Condition(lock)
        self._not_full = threading.Condition(lock)

    def __len__(self) -> int:
        with self._not_empty:
            return len(self._items)

    def _full(self) -> bool:
        return self._maxsize > 0 and len(self._items) >= self._maxsize

    def put(self, item: Any, timeout: float | None = None) -> None:
        with self._not_full:
            if not self._not_full.wait_for(lambda: self._closed or not self._full(), timeout):
                raise TimeoutError("put() timed out: queue full")
            if self._closed:
                raise Closed("put() on a closed queue")
            self._items.append(item)
            self._not_empty.notify()

    def get(self, timeout: float | None = None) -> Any:
        with self._not_empty:
            if not self._not_empty.wait_for(lambda: self._items or self._closed, timeout):
                raise TimeoutError("get() timed out: queue empty")
            if not self._items:
                raise Closed("queue closed and drained")
            item = self._items.popleft()
            self._not_full.notify()
            return item

    def close(self) -> None:
        """Stop accepting items and wake every waiting thread. Idempotent."""
        with self._not_empty:
            self._closed = True
            self._not_empty.notify_all()
            self._not_full.notify_all()
