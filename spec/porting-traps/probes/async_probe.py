# How asyncio.gather and asyncio.TaskGroup report a failing read while another is still pending.
import asyncio, time

async def slow():
    await asyncio.sleep(0.3)
    return "slow"

async def fail():
    raise RuntimeError("read failed")

async def main():
    t0 = time.monotonic()
    try:
        await asyncio.gather(slow(), fail())
    except Exception as e:
        print("gather: %s after %.1fs (the slow read keeps running)" % (type(e).__name__, time.monotonic() - t0))
    t0 = time.monotonic()
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(slow()); tg.create_task(fail())
    except BaseException as e:
        print("TaskGroup: %s after %.1fs (siblings cancelled)" % (type(e).__name__, time.monotonic() - t0))
    print("CancelledError is an Exception:", issubclass(asyncio.CancelledError, Exception))

asyncio.run(main())
