package dev.redrive.testing.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.EffectConflict;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.TransactionalClaimStore;
import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link TransactionalClaimStore}: every implementation (the in-memory fake, DynamoDB) must pass it.
 * A subclass supplies the store and the store's way of expressing an effect write.
 *
 * @param <W> the store's write type
 */
public abstract class ClaimStoreContract<W> {

    protected static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    protected static final Duration LEASE = Duration.ofSeconds(30);
    protected static final Duration TTL = Duration.ofDays(35);

    protected TransactionalClaimStore<W> store;

    /** A fresh, empty store (or one whose keys cannot collide with earlier tests). */
    protected abstract TransactionalClaimStore<W> newStore();

    /** A write that adds {@code amount} to the counter {@code counterId}. */
    protected abstract W increment(String counterId, long amount);

    /** A write whose own condition fails. */
    protected abstract W writeWhoseConditionFails(String counterId);

    /** The counter's current value (0 when absent). */
    protected abstract long counter(String counterId);

    /** A write that creates the counter {@code counterId} with value 1, on condition that it does not exist yet. */
    protected abstract W insertOnce(String counterId);

    /**
     * A write that sets the counter {@code counterId} to {@code token}, on condition that it is absent or holds a
     * smaller value: a downstream that enforces fencing tokens.
     */
    protected abstract W fencedSet(String counterId, long token);

    /** Sets the counter {@code counterId} to {@code value} outside any claim. */
    protected abstract void seedCounter(String counterId, long value);

    /** Where the next transaction meets a concurrent transaction (DynamoDB's TransactionConflict). */
    protected enum ConflictOn {
        /** On the claim item: the claim decided nothing. */
        CLAIM,
        /** On an item of the effect. */
        EFFECT
    }

    /** Makes the next {@code claimAndCommit} transaction meet a concurrent transaction on {@code where}. */
    protected abstract void nextTransactionMeetsAConflictOn(ConflictOn where);

    /** Stores {@code record} as a claim item written before claims carried a {@code version}. */
    protected abstract void storeWithoutVersion(ClaimRecord record);

    /** How many rounds the concurrency test runs; adapters on slower endpoints may run fewer, but at least 100. */
    protected int concurrencyRounds() {
        return 200;
    }

    @BeforeEach
    void createStore() {
        store = newStore();
    }

    @AfterEach
    void closeStore() throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    protected static IdempotencyKey newKey() {
        return new IdempotencyKey("contract", "order-" + UUID.randomUUID());
    }

    protected static ClaimRequest request(IdempotencyKey key, String hash, Instant now) {
        return new ClaimRequest(key, hash, now.plus(LEASE), now.plus(TTL), new MessageOrigin("orders", "m-1"));
    }

    protected static FailureRecord failure(FailureClass c, Instant at) {
        return new FailureRecord(Classification.of(c, "Boom", "it broke"), 1, at, at, "orders");
    }

    @Test
    void aNewKeyIsAcquiredWithTokenOne() {
        IdempotencyKey key = newKey();
        ClaimOutcome outcome = store.claim(request(key, "h1", T0), T0);

        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        ClaimOutcome.Acquired acquired = (ClaimOutcome.Acquired) outcome;
        assertThat(acquired.fencingToken()).isEqualTo(1);
        assertThat(acquired.takeover()).isFalse();
        ClaimRecord stored = store.find(key, T0).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.IN_PROGRESS);
        assertThat(stored.leaseExpiresAt()).isEqualTo(T0.plus(LEASE));
        assertThat(stored.expiresAt()).isEqualTo(T0.plus(TTL));
        assertThat(stored.payloadHash()).isEqualTo("h1");
        assertThat(stored.origin()).isEqualTo(new MessageOrigin("orders", "m-1"));
    }

    @Test
    void aCompletedKeyIsADuplicateAndKeepsItsResult() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        assertThat(store.complete(key, 1, "email-sent", T0.plusSeconds(1))).isEqualTo(FencedWrite.APPLIED);

        ClaimOutcome again = store.claim(request(key, "h1", T0.plusSeconds(5)), T0.plusSeconds(5));

        assertThat(again).isInstanceOf(ClaimOutcome.AlreadyCompleted.class);
        ClaimRecord existing = ((ClaimOutcome.AlreadyCompleted) again).existing();
        assertThat(existing.status()).isEqualTo(ClaimStatus.COMPLETED);
        assertThat(existing.result()).isEqualTo("email-sent");
        assertThat(existing.fencingToken()).isEqualTo(1);
    }

    @Test
    void aLiveLeaseIsHeldByAnother() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);

        ClaimOutcome second = store.claim(request(key, "h1", T0.plusSeconds(10)), T0.plusSeconds(10));

        assertThat(second).isInstanceOf(ClaimOutcome.HeldByAnother.class);
        assertThat(((ClaimOutcome.HeldByAnother) second).existing().leaseExpiresAt())
                .isEqualTo(T0.plus(LEASE));
    }

    @Test
    void anExpiredLeaseIsTakenOverWithTheNextToken() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        Instant later = T0.plus(LEASE).plusSeconds(1);

        ClaimOutcome takeover = store.claim(request(key, "h1", later), later);

        assertThat(takeover).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(((ClaimOutcome.Acquired) takeover).fencingToken()).isEqualTo(2);
        assertThat(((ClaimOutcome.Acquired) takeover).takeover()).isTrue();
        assertThat(store.find(key, later).orElseThrow().leaseExpiresAt()).isEqualTo(later.plus(LEASE));
    }

    @Test
    void aStalledWorkerCannotCompleteOrReleaseAfterItsLeaseWasTakenOver() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0); // token 1 stalls
        Instant later = T0.plus(LEASE).plusSeconds(1);
        store.claim(request(key, "h1", later), later); // token 2 takes over

        assertThat(store.complete(key, 1, "late", later.plusSeconds(1))).isEqualTo(FencedWrite.FENCED_OUT);
        assertThat(store.release(key, 1, failure(FailureClass.TRANSIENT, later), later.plusSeconds(1)))
                .isEqualTo(FencedWrite.FENCED_OUT);
        ClaimRecord stored = store.find(key, later.plusSeconds(1)).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.IN_PROGRESS);
        assertThat(stored.fencingToken()).isEqualTo(2);
        assertThat(stored.result()).isNull();
        assertThat(stored.lastFailure()).isNull();

        assertThat(store.complete(key, 2, "on-time", later.plusSeconds(2))).isEqualTo(FencedWrite.APPLIED);
        assertThat(store.find(key, later.plusSeconds(2)).orElseThrow().result()).isEqualTo("on-time");
    }

    @Test
    void aStalledWorkerWhoseLeaseExpiredButWasNotTakenOverMayStillComplete() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        Instant late = T0.plus(LEASE).plusSeconds(5);

        assertThat(store.complete(key, 1, "done", late)).isEqualTo(FencedWrite.APPLIED);
        assertThat(store.claim(request(key, "h1", late), late)).isInstanceOf(ClaimOutcome.AlreadyCompleted.class);
    }

    @Test
    void completingTwiceIsFencedOut() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        assertThat(store.complete(key, 1, "a", T0)).isEqualTo(FencedWrite.APPLIED);
        assertThat(store.complete(key, 1, "b", T0)).isEqualTo(FencedWrite.FENCED_OUT);
        assertThat(store.find(key, T0).orElseThrow().result()).isEqualTo("a");
    }

    @Test
    void completingAnUnknownKeyIsFencedOut() {
        assertThat(store.complete(newKey(), 1, "x", T0)).isEqualTo(FencedWrite.FENCED_OUT);
    }

    @Test
    void aReleasedClaimRecordsItsFailureAndIsReclaimedAtOnceCarryingTheHistory() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        FailureRecord first = new FailureRecord(
                new Classification(FailureClass.TRANSIENT, "SocketTimeoutException", "payments timed out", "payments"),
                1,
                T0.plusSeconds(1),
                T0.plusSeconds(1),
                "orders");
        assertThat(store.release(key, 1, first, T0.plusSeconds(1))).isEqualTo(FencedWrite.APPLIED);

        ClaimRecord released = store.find(key, T0.plusSeconds(1)).orElseThrow();
        assertThat(released.status()).isEqualTo(ClaimStatus.FAILED);
        assertThat(released.failureCount()).isEqualTo(1);
        assertThat(released.lastFailure()).isEqualTo(first);

        ClaimOutcome retry = store.claim(request(key, "h1", T0.plusSeconds(2)), T0.plusSeconds(2));
        assertThat(retry).isInstanceOf(ClaimOutcome.Acquired.class);
        ClaimRecord reclaimed = ((ClaimOutcome.Acquired) retry).claim();
        assertThat(reclaimed.fencingToken()).isEqualTo(2);
        assertThat(reclaimed.lastFailure()).isEqualTo(first);
        assertThat(reclaimed.failureCount()).isEqualTo(1);
        assertThat(store.find(key, T0.plusSeconds(2)).orElseThrow().lastFailure())
                .isEqualTo(first);
    }

    @Test
    void anExpiredRecordCountsAsAbsentAndIsClaimedAfreshWithoutItsHistory() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        store.release(key, 1, failure(FailureClass.TRANSIENT, T0), T0);
        Instant afterTtl = T0.plus(TTL).plusSeconds(1);

        assertThat(store.find(key, afterTtl)).isEmpty();
        ClaimOutcome outcome = store.claim(request(key, "other-payload", afterTtl), afterTtl);

        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        ClaimRecord claimed = ((ClaimOutcome.Acquired) outcome).claim();
        assertThat(claimed.fencingToken())
                .as("tokens never go back, even across expiry")
                .isEqualTo(2);
        assertThat(claimed.lastFailure()).isNull();
        assertThat(claimed.failureCount()).isZero();
        assertThat(claimed.payloadHash()).isEqualTo("other-payload");
    }

    @Test
    void anExpiredCompletedRecordIsNoLongerADuplicate() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        store.complete(key, 1, "done", T0);
        Instant afterTtl = T0.plus(TTL);

        assertThat(store.claim(request(key, "h1", afterTtl), afterTtl)).isInstanceOf(ClaimOutcome.Acquired.class);
    }

    @Test
    void aDifferentPayloadUnderACompletedKeyIsAMismatch() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        store.complete(key, 1, null, T0);

        ClaimOutcome outcome = store.claim(request(key, "h2", T0.plusSeconds(1)), T0.plusSeconds(1));

        assertThat(outcome).isInstanceOf(ClaimOutcome.PayloadMismatch.class);
        ClaimOutcome.PayloadMismatch mismatch = (ClaimOutcome.PayloadMismatch) outcome;
        assertThat(mismatch.existing().payloadHash()).isEqualTo("h1");
        assertThat(mismatch.offeredPayloadHash()).isEqualTo("h2");
        assertThat(store.find(key, T0.plusSeconds(1)).orElseThrow().status()).isEqualTo(ClaimStatus.COMPLETED);
    }

    @Test
    void aDifferentPayloadUnderALiveLeaseIsAMismatch() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        assertThat(store.claim(request(key, "h2", T0.plusSeconds(1)), T0.plusSeconds(1)))
                .isInstanceOf(ClaimOutcome.PayloadMismatch.class);
    }

    @Test
    void aDifferentPayloadMayReplaceAFailedAttempt() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "v1-hash", T0), T0);
        store.release(key, 1, failure(FailureClass.SCHEMA, T0), T0);

        ClaimOutcome outcome = store.claim(request(key, "v2-hash", T0.plusSeconds(1)), T0.plusSeconds(1));

        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(((ClaimOutcome.Acquired) outcome).claim().payloadHash()).isEqualTo("v2-hash");
    }

    @Test
    void concurrentClaimsOfOneKeyAcquireExactlyOnceEveryRound() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < concurrencyRounds(); round++) {
                IdempotencyKey key = newKey();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<ClaimOutcome>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    results.add(pool.submit((Callable<ClaimOutcome>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store.claim(request(key, "h", T0), T0);
                    }));
                }
                int acquired = 0;
                int held = 0;
                for (Future<ClaimOutcome> f : results) {
                    ClaimOutcome o = f.get(30, TimeUnit.SECONDS);
                    if (o instanceof ClaimOutcome.Acquired) {
                        acquired++;
                    } else if (o instanceof ClaimOutcome.HeldByAnother) {
                        held++;
                    }
                }
                assertThat(acquired).as("acquisitions in round %d", round).isEqualTo(1);
                assertThat(held).as("deferrals in round %d", round).isEqualTo(threads - 1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentTakeoversOfAnExpiredLeaseAcquireExactlyOnce() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < Math.max(20, concurrencyRounds() / 10); round++) {
                IdempotencyKey key = newKey();
                store.claim(request(key, "h", T0), T0);
                Instant later = T0.plus(LEASE).plusSeconds(1);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<ClaimOutcome>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    results.add(pool.submit((Callable<ClaimOutcome>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return store.claim(request(key, "h", later), later);
                    }));
                }
                long acquired = 0;
                for (Future<ClaimOutcome> f : results) {
                    if (f.get(30, TimeUnit.SECONDS) instanceof ClaimOutcome.Acquired a) {
                        acquired++;
                        assertThat(a.fencingToken()).isEqualTo(2);
                    }
                }
                assertThat(acquired).as("takeovers in round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTransactionCommitsClaimEffectAndCompletionTogether() {
        IdempotencyKey key = newKey();
        String counter = "revenue-" + UUID.randomUUID();

        ClaimOutcome outcome =
                store.claimAndCommit(request(key, "h1", T0), token -> List.of(increment(counter, 42)), "counted", T0);

        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(counter(counter)).isEqualTo(42);
        ClaimRecord stored = store.find(key, T0).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.COMPLETED);
        assertThat(stored.result()).isEqualTo("counted");
        assertThat(stored.fencingToken()).isEqualTo(1);
    }

    @Test
    void aDuplicateTransactionWritesNothing() {
        IdempotencyKey key = newKey();
        String counter = "revenue-" + UUID.randomUUID();
        store.claimAndCommit(request(key, "h1", T0), token -> List.of(increment(counter, 42)), null, T0);

        ClaimOutcome again = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)),
                token -> List.of(increment(counter, 42)),
                null,
                T0.plusSeconds(1));

        assertThat(again).isInstanceOf(ClaimOutcome.AlreadyCompleted.class);
        assertThat(counter(counter)).isEqualTo(42);
    }

    @Test
    void aTransactionOnAKeyHeldByAnotherWritesNothing() {
        IdempotencyKey key = newKey();
        String counter = "revenue-" + UUID.randomUUID();
        store.claim(request(key, "h1", T0), T0);

        ClaimOutcome outcome = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)),
                token -> List.of(increment(counter, 5)),
                null,
                T0.plusSeconds(1));

        assertThat(outcome).isInstanceOf(ClaimOutcome.HeldByAnother.class);
        assertThat(counter(counter)).isZero();
    }

    @Test
    void aTransactionAfterAFailedAttemptTakesOverWithTheNextToken() {
        IdempotencyKey key = newKey();
        String counter = "revenue-" + UUID.randomUUID();
        store.recordFailure(request(key, "h1", T0), failure(FailureClass.TRANSIENT, T0), T0);
        List<Long> tokensSeen = new ArrayList<>();

        ClaimOutcome outcome = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)),
                token -> {
                    tokensSeen.add(token);
                    return List.of(increment(counter, 7));
                },
                null,
                T0.plusSeconds(1));

        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(((ClaimOutcome.Acquired) outcome).fencingToken()).isEqualTo(2);
        assertThat(tokensSeen).last().isEqualTo(2L);
        assertThat(counter(counter)).isEqualTo(7);
        ClaimRecord stored = store.find(key, T0.plusSeconds(1)).orElseThrow();
        assertThat(stored.failureCount()).isEqualTo(1);
        assertThat(stored.status()).isEqualTo(ClaimStatus.COMPLETED);
    }

    @Test
    void aTransactionWhoseEffectConditionFailsWritesNothingAndSaysSo() {
        IdempotencyKey key = newKey();
        String counter = "revenue-" + UUID.randomUUID();

        assertThatThrownBy(() -> store.claimAndCommit(
                        request(key, "h1", T0),
                        token -> List.of(increment(counter, 1), writeWhoseConditionFails(counter)),
                        null,
                        T0))
                .isInstanceOfSatisfying(
                        EffectConflict.class,
                        e -> assertThat(e.kind()).isEqualTo(EffectConflict.Kind.CONDITION_FAILED));
        assertThat(store.find(key, T0)).isEmpty();
        assertThat(counter(counter)).isZero();
    }

    @Test
    void recordingAFailureNeverTouchesACompletedClaimOrALiveLease() {
        IdempotencyKey done = newKey();
        store.claim(request(done, "h", T0), T0);
        store.complete(done, 1, "ok", T0);
        IdempotencyKey live = newKey();
        store.claim(request(live, "h", T0), T0);

        assertThat(store.recordFailure(request(done, "h", T0), failure(FailureClass.TRANSIENT, T0), T0))
                .isEqualTo(FencedWrite.FENCED_OUT);
        assertThat(store.recordFailure(request(live, "h", T0), failure(FailureClass.TRANSIENT, T0), T0))
                .isEqualTo(FencedWrite.FENCED_OUT);
        assertThat(store.find(done, T0).orElseThrow().status()).isEqualTo(ClaimStatus.COMPLETED);
        assertThat(store.find(live, T0).orElseThrow().status()).isEqualTo(ClaimStatus.IN_PROGRESS);
    }

    @Test
    void recordingFailuresCountsThem() {
        IdempotencyKey key = newKey();
        FailureRecord f1 = failure(FailureClass.TRANSIENT, T0);
        assertThat(store.recordFailure(request(key, "h", T0), f1, T0)).isEqualTo(FencedWrite.APPLIED);
        FailureRecord f2 = new FailureRecord(f1.classification(), 2, T0, T0.plusSeconds(9), "orders");
        assertThat(store.recordFailure(request(key, "h", T0.plusSeconds(9)), f2, T0.plusSeconds(9)))
                .isEqualTo(FencedWrite.APPLIED);

        ClaimRecord stored = store.find(key, T0.plusSeconds(9)).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.FAILED);
        assertThat(stored.failureCount()).isEqualTo(2);
        assertThat(stored.fencingToken()).isEqualTo(2);
        assertThat(stored.lastFailure()).isEqualTo(f2);
    }

    @Test
    void aDuplicateOfAnInsertOnceEffectIsAlreadyCompletedNotAConditionFailure() {
        IdempotencyKey key = newKey();
        String item = "once-" + UUID.randomUUID();
        assertThat(store.claimAndCommit(request(key, "h1", T0), token -> List.of(insertOnce(item)), "inserted", T0))
                .isInstanceOf(ClaimOutcome.Acquired.class);

        ClaimOutcome again = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)),
                token -> List.of(insertOnce(item)),
                "inserted",
                T0.plusSeconds(1));

        assertThat(again)
                .as("the claim decides first: a redelivered duplicate is acknowledged, not dead-lettered")
                .isInstanceOf(ClaimOutcome.AlreadyCompleted.class);
        assertThat(counter(item)).isEqualTo(1);
    }

    @Test
    void aTakeoverCommitsItsEffectWithTheRealToken() {
        IdempotencyKey key = newKey();
        String item = "fenced-" + UUID.randomUUID();
        seedCounter(item, 1); // the downstream has seen token 1 already
        store.recordFailure(request(key, "h1", T0), failure(FailureClass.TRANSIENT, T0), T0); // token 1 failed

        ClaimOutcome outcome = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)),
                token -> List.of(fencedSet(item, token)),
                "set",
                T0.plusSeconds(1));

        assertThat(outcome).isInstanceOf(ClaimOutcome.Acquired.class);
        assertThat(((ClaimOutcome.Acquired) outcome).fencingToken()).isEqualTo(2);
        assertThat(counter(item)).as("the effect carried token 2").isEqualTo(2);
        assertThat(store.find(key, T0.plusSeconds(1)).orElseThrow().status()).isEqualTo(ClaimStatus.COMPLETED);
    }

    @Test
    void aTakeoverWhoseEffectConditionFailsWritesNothingAndSaysSo() {
        IdempotencyKey key = newKey();
        String item = "fenced-" + UUID.randomUUID();
        seedCounter(item, 9); // a newer writer got there first
        store.recordFailure(request(key, "h1", T0), failure(FailureClass.TRANSIENT, T0), T0);

        assertThatThrownBy(() -> store.claimAndCommit(
                        request(key, "h1", T0.plusSeconds(1)),
                        token -> List.of(fencedSet(item, token)),
                        null,
                        T0.plusSeconds(1)))
                .isInstanceOfSatisfying(
                        EffectConflict.class,
                        e -> assertThat(e.kind()).isEqualTo(EffectConflict.Kind.CONDITION_FAILED));
        assertThat(counter(item)).isEqualTo(9);
        ClaimRecord stored = store.find(key, T0.plusSeconds(1)).orElseThrow();
        assertThat(stored.status()).isEqualTo(ClaimStatus.FAILED);
        assertThat(stored.fencingToken()).isEqualTo(1);
    }

    @Test
    void aDuplicateWhoseEffectMetAConcurrentTransactionIsStillADuplicate() {
        IdempotencyKey key = newKey();
        String item = "once-" + UUID.randomUUID();
        store.claimAndCommit(request(key, "h1", T0), token -> List.of(insertOnce(item)), null, T0);
        nextTransactionMeetsAConflictOn(ConflictOn.EFFECT);

        ClaimOutcome again = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)), token -> List.of(insertOnce(item)), null, T0.plusSeconds(1));

        assertThat(again).isInstanceOf(ClaimOutcome.AlreadyCompleted.class);
        assertThat(counter(item)).isEqualTo(1);
    }

    @Test
    void aConflictOnTheClaimIsTransientEvenWhenTheEffectConditionAlsoFailed() {
        IdempotencyKey key = newKey();
        String item = "once-" + UUID.randomUUID();
        seedCounter(item, 1); // insertOnce's condition fails
        nextTransactionMeetsAConflictOn(ConflictOn.CLAIM);

        assertThatThrownBy(() ->
                        store.claimAndCommit(request(key, "h1", T0), token -> List.of(insertOnce(item)), null, T0))
                .as("the claim decided nothing, so the effect's condition was judged on a guess: retry")
                .isInstanceOfSatisfying(
                        EffectConflict.class, e -> assertThat(e.kind()).isEqualTo(EffectConflict.Kind.CONFLICT));
        assertThat(store.find(key, T0)).isEmpty();
        assertThat(counter(item)).isEqualTo(1);
    }

    @Test
    void aClaimStoredWithoutAVersionCanBeTakenOver() {
        IdempotencyKey lapsed = newKey();
        storeWithoutVersion(new ClaimRecord(
                lapsed,
                ClaimStatus.IN_PROGRESS,
                1,
                T0.plus(LEASE),
                T0.plus(TTL),
                "h1",
                null,
                null,
                0,
                new MessageOrigin("orders", "m-0"),
                0));
        IdempotencyKey failed = newKey();
        storeWithoutVersion(new ClaimRecord(
                failed,
                ClaimStatus.FAILED,
                1,
                T0,
                T0.plus(TTL),
                "h1",
                null,
                failure(FailureClass.TRANSIENT, T0),
                1,
                new MessageOrigin("orders", "m-0"),
                0));
        Instant later = T0.plus(LEASE).plusSeconds(1);
        String counter = "revenue-" + UUID.randomUUID();

        ClaimOutcome takeover = store.claim(request(lapsed, "h1", later), later);
        ClaimOutcome committed = store.claimAndCommit(
                request(failed, "h1", later), token -> List.of(increment(counter, 3)), null, later);

        assertThat(takeover)
                .isInstanceOfSatisfying(
                        ClaimOutcome.Acquired.class,
                        a -> assertThat(a.fencingToken()).isEqualTo(2));
        assertThat(committed)
                .isInstanceOfSatisfying(
                        ClaimOutcome.Acquired.class,
                        a -> assertThat(a.fencingToken()).isEqualTo(2));
        assertThat(counter(counter)).isEqualTo(3);
        assertThat(store.complete(lapsed, 2, "done", later)).isEqualTo(FencedWrite.APPLIED);
    }

    @Test
    void recordingAFailureKeepsTheFirstFailureTimeOfTheHistory() {
        IdempotencyKey key = newKey();
        store.recordFailure(request(key, "h", T0), failure(FailureClass.TRANSIENT, T0), T0);
        Instant later = T0.plusSeconds(90);

        store.recordFailure(request(key, "h", later), failure(FailureClass.TRANSIENT, later), later);

        FailureRecord last = store.find(key, later).orElseThrow().lastFailure();
        assertThat(last.firstFailedAt()).isEqualTo(T0);
        assertThat(last.lastFailedAt()).isEqualTo(later);
    }

    @Test
    void completingRefreshesTheRecordsExpiry() {
        IdempotencyKey key = newKey();
        store.claim(request(key, "h1", T0), T0);
        Instant done = T0.plusSeconds(25);

        assertThat(store.complete(key, 1, "ok", done.plus(TTL), done)).isEqualTo(FencedWrite.APPLIED);

        assertThat(store.find(key, done).orElseThrow().expiresAt()).isEqualTo(done.plus(TTL));
    }

    @Test
    void aDuplicateIsAcknowledgedEvenWhenItsEffectCanNoLongerBeBuilt() {
        IdempotencyKey key = newKey();
        String counter = "revenue-" + UUID.randomUUID();
        store.claimAndCommit(request(key, "h1", T0), token -> List.of(increment(counter, 5)), null, T0);

        ClaimOutcome again = store.claimAndCommit(
                request(key, "h1", T0.plusSeconds(1)),
                token -> {
                    throw new dev.redrive.core.failure.PermanentFailure(
                            "UnsupportedCurrency", "the rules changed since it was applied");
                },
                null,
                T0.plusSeconds(1));

        assertThat(again)
                .as("the claim decides before the effect is built")
                .isInstanceOf(ClaimOutcome.AlreadyCompleted.class);
        assertThat(counter(counter)).isEqualTo(5);
    }
}
