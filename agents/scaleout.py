"""Fights on a Ray cluster: ``--ray ADDRESS`` (or ``RAY_ADDRESS``; the option is
``cli.common.RayOpt``) on the lab's commands and ``tournament``.

Why the results are the same to the bit as on one machine: the work is cut into the same
units (an ordered pairing's seeds under one condition), every fight is seeded from its own
seed and agents re-seed per fight, and the callers sort what comes back by key; where a
unit runs (a local process or a Ray worker) changes nothing but the time.

``--ray local`` starts a Ray instance on this machine for the run, bound to the loopback
address only (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` makes Ray keep its node on
127.0.0.1 instead of the machine's network address; no dashboard; usage statistics off).
Any other value is the address of a running cluster (``ray start --head
--node-ip-address=127.0.0.1`` for one on this machine).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

RAY_ENV = "RAY_ADDRESS"
_STATE: dict[str, str | None] = {"address": None}


def use_ray(address: str | None) -> None:
    """Where the next runs send their fights: ``address``, else ``RAY_ADDRESS``, else here."""
    _STATE["address"] = (address or os.environ.get(RAY_ENV) or "").strip() or None
    if _STATE["address"] is not None:
        _ray()  # a missing ray, or a bad address: one line before any fight
        connect()


def ray_address() -> str | None:
    return _STATE["address"]


LOOPBACK = "127.0.0.1"


def _ray() -> Any:
    """The ray module; for ``local``, imported with its node kept on the loopback address
    (Ray reads ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` when it is first imported)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if _STATE["address"] == "local":
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    try:
        import ray
        from ray._private import ray_constants
    except ImportError:
        raise ValueError("ray: --ray needs the ray package (pip install 'ray>=2.50')") from None
    if _STATE["address"] == "local" and ray_constants.ENABLE_RAY_CLUSTER:
        raise ValueError("ray: --ray local: ray was imported before it could be kept on "
                         f"{LOOPBACK}; start a cluster (ray start --head --node-ip-address="
                         f"{LOOPBACK}) and give its address")
    return ray


def connect() -> None:
    """Join the cluster (once per process); ``local`` starts one on the loopback address
    and checks that its node is there."""
    ray = _ray()
    if ray.is_initialized():
        return
    address = _STATE["address"]
    opts = {"log_to_driver": False, "configure_logging": False}
    try:
        if address == "local":
            ray.init(address="local", _node_ip_address=LOOPBACK, include_dashboard=False, **opts)
            where = {n["NodeManagerAddress"] for n in ray.nodes()}
            if where != {LOOPBACK}:
                ray.shutdown()
                raise ValueError(f"ray: --ray local: the node took {sorted(where)}, not {LOOPBACK}")
        else:
            ray.init(address=address, **opts)
    except (ConnectionError, RuntimeError) as exc:
        raise ValueError(f"ray: address {address!r}: cannot connect ({exc})") from None


def _task(init: Callable[..., None], args: tuple, fn: Callable[[Any], Any], item: Any) -> Any:
    """One unit on a Ray worker: the same set-up as a pool worker's, then the unit."""
    init(*args)
    return fn(item)


class RayPool:
    """The part of ``multiprocessing.Pool`` the runners use, on Ray."""

    def __init__(self, init: Callable[..., None], args: tuple) -> None:
        ray = _ray()
        connect()
        self._ray = ray
        self._remote = ray.remote(_task)
        self._init = init
        self._args = ray.put(args)

    def imap_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        ray = self._ray
        refs = [self._remote.remote(self._init, self._args, fn, it) for it in items]
        while refs:
            done, refs = ray.wait(refs, num_returns=1)
            yield ray.get(done[0])


@contextmanager
def ray_pool(init: Callable[..., None], args: tuple) -> Iterator[RayPool]:
    yield RayPool(init, args)
