package sessionref.kit;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * JavaScript's event loop for one request, on the thread that runs it: microtasks (the
 * settlements of session-query calls) all run before the next macrotask, as promise reactions
 * run before a timer; timers (the cancel modes' backstops) run once due, and are dropped when
 * the request's future is done.
 */
final class Loop {
    private final ArrayDeque<Runnable> micro = new ArrayDeque<>();
    private final ArrayDeque<Runnable> macro = new ArrayDeque<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private long timerSeq;

    private record Timer(long due, long seq, Runnable task) implements Comparable<Timer> {
        @Override public int compareTo(Timer o) { return due != o.due ? Long.compare(due, o.due) : Long.compare(seq, o.seq); }
    }

    /** Queues a microtask. */
    synchronized void micro(Runnable r) { micro.add(r); notifyAll(); }

    /** Queues a macrotask. */
    synchronized void macro(Runnable r) { macro.add(r); notifyAll(); }

    /** Queues a macrotask once ms milliseconds have passed (setTimeout). */
    synchronized void after(long ms, Runnable r) {
        timers.add(new Timer(System.nanoTime() + ms * 1_000_000, timerSeq++, r));
        notifyAll();
    }

    private synchronized Runnable next(CompletableFuture<?> result) throws InterruptedException {
        while (true) {
            if (!micro.isEmpty()) return micro.poll();
            if (result.isDone()) return null;
            if (!macro.isEmpty()) return macro.poll();
            Timer t = timers.peek();
            if (t == null) {
                // Nothing queued: a port that completes futures from threads of its own wakes us.
                wait();
                continue;
            }
            long wait = t.due() - System.nanoTime();
            if (wait <= 0) return timers.poll().task();
            wait(Math.max(1, wait / 1_000_000), 0);
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
