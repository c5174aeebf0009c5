package sessionref.kit;

import java.util.ArrayList;
import java.util.List;

/**
 * An AbortSignal: aborted once, its listeners run at the abort, synchronously, in the order
 * added (as JavaScript dispatches the abort event).
 */
public final class Signal {
    private boolean aborted;
    private final List<Runnable> listeners = new ArrayList<>();

    /** Whether the signal is aborted. */
    public synchronized boolean aborted() { return aborted; }

    /** Adds a listener run at the abort (once); returns it, for removeListener. */
    public synchronized Runnable onAbort(Runnable r) { listeners.add(r); return r; }

    /** Removes a listener. */
    public synchronized void removeListener(Runnable r) { listeners.remove(r); }

    /** Aborts the signal (the kit's cancel modes do). */
    public void abort() {
        List<Runnable> run;
        synchronized (this) {
            if (aborted) return;
            aborted = true;
            run = new ArrayList<>(listeners);
            listeners.clear();
        }
        for (Runnable r : run) r.run();
    }
}
