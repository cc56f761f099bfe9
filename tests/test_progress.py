

def _sleep(seconds):
    import time

    time.sleep(seconds)
    return seconds


def test_an_interrupt_ends_the_worker_pool_and_its_queued_tasks():
    """Ctrl-C during `rulec build`, `docs` or `verify` left the workers running the queued checks for
    minutes (the pool's exit waits for them; newuser55): `worker_pool` cancels what is queued and ends
    the workers, and the interrupt goes on to the command."""
    import multiprocessing

    import pytest

    from compiler.progress import worker_pool

    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2, multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_sleep, 600) for _ in range(6)]
            processes = list(pool._processes.values())
            raise KeyboardInterrupt
    assert processes and not any(p.is_alive() for p in processes)
    assert sum(f.cancelled() for f in futures) >= 3  # (those not yet handed to a worker's queue)
    # without an interrupt, every task's result
    with worker_pool(2, multiprocessing.get_context("fork")) as pool:
        assert sorted(f.result() for f in [pool.submit(_sleep, 0) for _ in range(3)]) == [0, 0, 0]
