package dev.redrive.localrun.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

/**
 * What the sandboxes' proxies saw of claims and effects, per idempotency key, in the order AWS took them: each lease
 * granted (fencing token and lease end), each effect call (when it reached AWS, under which token), each effect AWS
 * accepted, each completion. From it the checker reads whether a write by a stale token was accepted: an effect that
 * reached AWS after its token's lease had ended, or after a higher token had been granted, and was taken.
 */
public final class FencingJournal {

    /**
     * An effect call whose token was stale when it arrived (and, in {@link #staleAccepted}, that AWS accepted).
     *
     * @param sentAtMillis   when it reached AWS (the proxy), epoch millis
     * @param signedAtMillis when the sandbox signed it (its {@code X-Amz-Date}, to the second), or -1: a call signed
     *                       well inside its lease that still arrived after it was late on the wire, not sent late
     */
    public record StaleWrite(String key, long token, long sentAtMillis, long signedAtMillis, String why) {}

    private static final class KeyState {
        long highestToken;
        final Map<Long, Long> leaseEndByToken = new HashMap<>();
        int effectCalls;
        int effectsAccepted;
        int completions;
    }

    private final Map<String, KeyState> keys = new ConcurrentHashMap<>();
    private final List<StaleWrite> staleAccepted = new ArrayList<>();
    private final List<StaleWrite> lateCalls = new ArrayList<>();
    private final AtomicLong effectCalls = new AtomicLong();
    private final AtomicLong effectsAccepted = new AtomicLong();
    private final AtomicLong completions = new AtomicLong();

    private KeyState state(String key) {
        return keys.computeIfAbsent(key, k -> new KeyState());
    }

    /** A claim with {@code token} and lease end was written for {@code key}. */
    public void granted(String key, long token, long leaseEndMillis) {
        if (key == null || token < 0) {
            return;
        }
        KeyState s = state(key);
        synchronized (s) {
            s.highestToken = Math.max(s.highestToken, token);
            s.leaseEndByToken.put(token, leaseEndMillis);
        }
    }

    /** The end of the lease granted to {@code key} under {@code token}, in epoch millis; -1 when none is known. */
    public long leaseEnd(String key, long token) {
        if (key == null) {
            return -1;
        }
        KeyState s = state(key);
        synchronized (s) {
            Long end = s.leaseEndByToken.get(token);
            return end == null ? -1 : end;
        }
    }

    /** Effect calls for {@code key} that reached AWS, accepted or not. */
    public int effectCallsOf(String key) {
        return countOf(key, s -> s.effectCalls);
    }

    /** Effect calls for {@code key} that AWS accepted. */
    public int effectsAcceptedOf(String key) {
        return countOf(key, s -> s.effectsAccepted);
    }

    private int countOf(String key, ToIntFunction<KeyState> count) {
        KeyState s = keys.get(key);
        if (s == null) {
            return 0;
        }
        synchronized (s) {
            return count.applyAsInt(s);
        }
    }

    /**
     * An effect call under {@code token}, signed by the sandbox at {@code signedAtMillis} (-1 when unknown), reached
     * AWS at {@code sentAtMillis}. Returns why it is stale (its lease had ended, or a higher token had been granted),
     * or null when it is not.
     */
    public String effectCall(String key, long token, long sentAtMillis, long signedAtMillis) {
        effectCalls.incrementAndGet();
        if (key == null || token < 0) {
            return null;
        }
        KeyState s = state(key);
        String why;
        synchronized (s) {
            s.effectCalls++;
            Long leaseEnd = s.leaseEndByToken.get(token);
            if (s.highestToken > token) {
                why = "token " + token + " was superseded by " + s.highestToken + signed(signedAtMillis, leaseEnd);
            } else if (leaseEnd != null && leaseEnd >= 0 && sentAtMillis > leaseEnd) {
                why = "arrived " + (sentAtMillis - leaseEnd) + " ms after the lease of token " + token + " ended"
                        + signed(signedAtMillis, leaseEnd);
            } else {
                why = null;
            }
        }
        if (why != null) {
            synchronized (lateCalls) {
                lateCalls.add(new StaleWrite(key, token, sentAtMillis, signedAtMillis, why));
            }
        }
        return why;
    }

    private static String signed(long signedAtMillis, Long leaseEnd) {
        if (signedAtMillis < 0 || leaseEnd == null || leaseEnd < 0) {
            return "";
        }
        // X-Amz-Date is to the second: the sandbox signed it in the second that follows signedAtMillis.
        long before = leaseEnd - signedAtMillis;
        return before >= 0
                ? "; signed at most " + before + " ms before its lease ended"
                : "; signed at least " + -before + " ms after its lease ended";
    }

    /** AWS accepted the effect call; {@code staleWhy} is what {@link #effectCall} said of it. */
    public void effectAccepted(String key, long token, long sentAtMillis, long signedAtMillis, String staleWhy) {
        effectsAccepted.incrementAndGet();
        if (key == null) {
            return;
        }
        KeyState s = state(key);
        synchronized (s) {
            s.effectsAccepted++;
        }
        if (staleWhy != null) {
            synchronized (staleAccepted) {
                staleAccepted.add(new StaleWrite(key, token, sentAtMillis, signedAtMillis, staleWhy));
            }
        }
    }

    /** A completion of {@code key} was written (the revenue transaction counts as one too). */
    public void completed(String key) {
        completions.incrementAndGet();
        if (key == null) {
            return;
        }
        KeyState s = state(key);
        synchronized (s) {
            s.completions++;
        }
    }

    /** Keys with at least one completion, whose name starts with {@code prefix} (a consumer's). */
    public long completedKeys(String prefix) {
        return keys.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .filter(e -> {
                    synchronized (e.getValue()) {
                        return e.getValue().completions > 0;
                    }
                })
                .count();
    }

    public List<StaleWrite> staleAccepted() {
        synchronized (staleAccepted) {
            return List.copyOf(staleAccepted);
        }
    }

    /** Effect calls that reached AWS with a stale token, accepted or not. */
    public List<StaleWrite> lateEffectCalls() {
        synchronized (lateCalls) {
            return new ArrayList<>(lateCalls);
        }
    }

    public long effectCalls() {
        return effectCalls.get();
    }

    public long effectsAccepted() {
        return effectsAccepted.get();
    }

    public long completions() {
        return completions.get();
    }
}
