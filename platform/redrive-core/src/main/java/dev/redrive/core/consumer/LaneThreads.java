package dev.redrive.core.consumer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads batches run their lanes on: started per batch (daemon), counted while they run, so that a hung lane
 * holds only its own thread and the caller can wait until every lane has ended.
 */
final class LaneThreads {

    private final AtomicInteger number = new AtomicInteger();
    private int running; // guarded by this

    /** Starts {@code work} on a new lane thread. */
    Thread start(Runnable work) {
        synchronized (this) {
            running++;
        }
        Thread t = new Thread(
                () -> {
                    try {
                        work.run();
                    } finally {
                        ended();
                    }
                },
                "redrive-lane-" + number.incrementAndGet());
        t.setDaemon(true);
        try {
            t.start();
        } catch (RuntimeException | Error e) {
            ended();
            throw e;
        }
        return t;
    }

    synchronized int running() {
        return running;
    }

    /** Waits until no lane thread runs, at most {@code timeout}; true when none does. */
    synchronized boolean awaitNoneRunning(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (running > 0) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private synchronized void ended() {
        running--;
        notifyAll();
    }
}
