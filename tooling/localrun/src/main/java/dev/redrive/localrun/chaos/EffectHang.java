package dev.redrive.localrun.chaos;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * An effect call that hangs past its claim's lease: the sandbox's request is held in its counting proxy (not yet
 * written when the process stops, or stuck in I/O that ignores interrupts) and the sandbox is frozen (SIGSTOP), either
 * at once ({@link Freeze#NOW}: a stop in the middle of the effect, as a long GC pause or a stalled host stops a JVM) or
 * the moment it answers its invocation ({@link Freeze#WHEN_IT_ANSWERS}: as Lambda freezes an environment that has
 * answered), and thawed (SIGCONT) 1 to 3 s past the lease. Only then is the call let go, so whatever it would do
 * happens after another worker may have taken over.
 *
 * <p>Where the call then goes depends on {@link Delivery}: a sandbox that no longer runs (ended at its function
 * timeout, say) sends nothing more; {@link Delivery#ON_THE_WIRE} delivers the call anyway, the worst case in which its
 * bytes had left before the process stopped and reach the downstream late, so that only the downstream's own fencing
 * or idempotency can refuse it.
 */
public final class EffectHang {

    /** When the sandbox is frozen. */
    public enum Freeze {
        /** At once, with the call held: in the middle of the effect. */
        NOW,
        /** Once the sandbox has answered its invocation (it never does while a record still runs: issue 12). */
        WHEN_IT_ANSWERS
    }

    /** What becomes of the held call once it is let go. */
    public enum Delivery {
        /** It reaches AWS only if the process that sent it still runs (the faithful case). */
        IF_THE_SANDBOX_RUNS,
        /** It reaches AWS whatever became of its process (the worst case: its bytes were already on the wire). */
        ON_THE_WIRE
    }

    /** What happened to the held call: whether its sandbox still ran when it was let go, and whether it was sent. */
    public record Outcome(boolean sandboxRan, boolean sent, boolean sandboxWasFrozen) {}

    private final Freeze freeze;
    private final Delivery delivery;
    private final CompletableFuture<Void> release;
    private final CompletableFuture<Void> held = new CompletableFuture<>();
    private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    private EffectHang(Freeze freeze, Delivery delivery, CompletableFuture<Void> release) {
        this.freeze = freeze;
        this.delivery = delivery;
        this.release = release;
    }

    /**
     * The chaos run's pause: the sandbox frozen at once, the call let go when it is thawed past the lease or has
     * ended, and sent only if it still runs.
     */
    static EffectHang pause() {
        return new EffectHang(Freeze.NOW, Delivery.IF_THE_SANDBOX_RUNS, CompletableFuture.completedFuture(null));
    }

    /** A hang let go only once {@link #release()} is called as well (a test decides when the call goes on). */
    public static EffectHang untilReleased(Freeze freeze, Delivery delivery) {
        return new EffectHang(freeze, delivery, new CompletableFuture<>());
    }

    /** Lets the held call go on (once its sandbox is also thawed or gone). */
    public void release() {
        release.complete(null);
    }

    /** Completes when the call is held: the sandbox has sent it and waits for its answer. */
    public CompletableFuture<Void> held() {
        return held;
    }

    /** Completes once the held call has been let go, with what became of it. */
    public CompletableFuture<Outcome> outcome() {
        return outcome;
    }

    Freeze freeze() {
        return freeze;
    }

    Delivery delivery() {
        return delivery;
    }

    CompletableFuture<Void> releaseSignal() {
        return release;
    }

    void nowHeld() {
        held.complete(null);
    }

    void letGo(Outcome what) {
        outcome.complete(what);
    }

    /** The thaw of a hang whose lease ends at {@code leaseEndMillis}: 1 to 3 s past it, by {@code uniform} in [0,1). */
    static Instant thawAfter(long leaseEndMillis, double uniform) {
        return Instant.ofEpochMilli(leaseEndMillis + 1_000 + (long) (uniform * 2_000));
    }
}
