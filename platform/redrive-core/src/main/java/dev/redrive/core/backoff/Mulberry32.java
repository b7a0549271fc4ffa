package dev.redrive.core.backoff;

/**
 * The mulberry32 generator: 32 bits of state, reproducible bit for bit in any language with 32-bit integer
 * arithmetic (the reference is a few lines of JavaScript using {@code Math.imul}). Used for seeded, reproducible
 * backoff schedules in tests, benchmarks and {@code redrive backoff --seed}. Not for security.
 *
 * <p>Not thread-safe: give each thread its own, or guard it.
 */
public final class Mulberry32 implements RandomSource {
    private int state;

    public Mulberry32(int seed) {
        this.state = seed;
    }

    /** The next 32-bit output as an unsigned value in [0, 2^32). */
    public long nextUnsignedInt() {
        state += 0x6D2B79F5;
        int t = state;
        t = (t ^ (t >>> 15)) * (t | 1);
        t ^= t + (t ^ (t >>> 7)) * (t | 61);
        return (t ^ (t >>> 14)) & 0xFFFFFFFFL;
    }

    @Override
    public double nextDouble() {
        return nextUnsignedInt() / 4294967296.0;
    }
}
