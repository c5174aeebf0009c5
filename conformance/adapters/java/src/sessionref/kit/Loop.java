package sessionref.kit;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * JavaScript's event loop for one request, on the thread that runs it: microtasks (the
 * settlements of session-query calls) all run before the next macrotask (a cancel mode's
 * abort), as promise reactions run before a timer. So "abort once everything else has
 * settled and been seen" needs no timer: it is a macrotask.
 */
final class Loop {
    private final ArrayDeque<Runnable> micro = new ArrayDeque<>();
    private final ArrayDeque<Runnable> macro = new ArrayDeque<>();

    /** Queues a microtask. */
    synchronized void micro(Runnable r) { micro.add(r); notifyAll(); }

    /** Queues a macrotask. */
    synchronized void macro(Runnable r) { macro.add(r); notifyAll(); }

    private synchronized Runnable next(CompletableFuture<?> result) throws InterruptedException {
        while (true) {
            if (!micro.isEmpty()) return micro.poll();
            if (result.isDone()) return null;
            if (!macro.isEmpty()) return macro.poll();
            // Nothing queued: a port that completes futures from threads of its own wakes us.
            wait();
        }
    }

    private synchronized void wake() { notifyAll(); }

    /**
     * Runs start on this thread, then the loop until the future it returned is done, and
     * returns its value or throws its failure (unwrapped).
     */
    <T> T run(Supplier<CompletableFuture<T>> start) throws Throwable {
        CompletableFuture<T> result;
        try {
            result = start.get();
        } catch (Throwable t) {
            result = CompletableFuture.failedFuture(t);
        }
        if (result == null) throw new NullPointerException("the port returned a null future");
        CompletableFuture<T> r = result;
        r.whenComplete((v, e) -> wake());
        while (true) {
            Runnable task = next(r);
            if (task == null) break;
            task.run();
        }
        try {
            return r.join();
        } catch (CompletionException e) {
            throw e.getCause() == null ? e : e.getCause();
        } catch (java.util.concurrent.CancellationException e) {
            throw e;
        }
    }
}
