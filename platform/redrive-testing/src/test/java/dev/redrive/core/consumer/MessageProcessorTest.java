package dev.redrive.core.consumer;

import static dev.redrive.testing.Messages.message;
import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import dev.redrive.core.claim.ClaimOutcome;
import dev.redrive.core.claim.ClaimRecord;
import dev.redrive.core.claim.ClaimRequest;
import dev.redrive.core.claim.ClaimStatus;
import dev.redrive.core.claim.FencedWrite;
import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.claim.LeasePolicy;
import dev.redrive.core.claim.MessageOrigin;
import dev.redrive.core.claim.PayloadFingerprint;
import dev.redrive.core.claim.TransactionalClaimStore;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.failure.FailureRecord;
import dev.redrive.core.failure.PermanentFailure;
import dev.redrive.core.failure.TransientFailure;
import dev.redrive.testing.ManualClock;
import dev.redrive.testing.ScriptedConsumer;
import dev.redrive.testing.claim.InMemoryClaimStore;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

class MessageProcessorTest {

    static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    static final Duration REMAINING = Duration.ofSeconds(30);

    final ManualClock clock = new ManualClock(T0);
    final InMemoryClaimStore store = new InMemoryClaimStore();
    final FullJitterBackoff backoff = new FullJitterBackoff(Duration.ofSeconds(2), 2.0, Duration.ofMinutes(5));
    final LeasePolicy leases = new LeasePolicy(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofDays(35));
    final ScriptedConsumer consumer = new ScriptedConsumer();

    MessageProcessor processor(int seed) {
        return new MessageProcessor(store, leases, backoff, new Mulberry32(seed), clock, ProcessingListener.NONE);
    }

    MessageOutcome process(MessageProcessor p, IncomingMessage m) {
        return p.process(consumer, m, () -> REMAINING);
    }

    @Test
    void aNewMessageIsAppliedAndItsDuplicateIsAcknowledgedWithoutRunning() {
        MessageProcessor p = processor(1);

        MessageOutcome first = process(p, message("order-1|a"));
        MessageOutcome again = process(p, message("order-1|a"));

        assertThat(first).isEqualTo(new MessageOutcome.Applied("scripted#order-1", 1, "ok"));
        assertThat(again).isEqualTo(new MessageOutcome.Duplicate("scripted#order-1"));
        assertThat(consumer.applied("order-1")).isEqualTo(1);
        ClaimRecord claim = store.find(key("order-1"), T0).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.COMPLETED);
        assertThat(claim.leaseExpiresAt()).isEqualTo(T0.plus(REMAINING).plusSeconds(2));
    }

    @Test
    void anUnreadableMessageIsDeadLetteredAsSchemaWithoutAClaim() {
        MessageOutcome outcome = process(processor(1), message("|no key here"));

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.key()).isNull();
            assertThat(d.failure().failureClass()).isEqualTo(FailureClass.SCHEMA);
            assertThat(d.failure().classification().errorType()).isEqualTo("MissingKey");
        });
        assertThat(store.size()).isZero();
    }

    @Test
    void aTransientFailureRetriesAfterTheJitteredDelayAndRecordsTheFailureOnTheClaim() {
        consumer.failing("order-2", (k, c) -> new TransientFailure("payments timed out", "payments"));
        Mulberry32 sameDraws = new Mulberry32(7);

        MessageOutcome outcome = process(processor(7), message("order-2", 3, null));

        long expectedDelay = Math.round(Math.min(300, 2 * Math.pow(2, 2)) * sameDraws.nextDouble());
        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
            assertThat(r.delaySeconds()).isEqualTo(expectedDelay);
            assertThat(r.classification().dependency()).isEqualTo("payments");
        });
        ClaimRecord claim = store.find(key("order-2"), T0).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.FAILED);
        assertThat(claim.lastFailure().attempt()).isEqualTo(3);
        assertThat(claim.lastFailure().sourceQueue()).isEqualTo("arn:aws:sqs:us-east-1:1:orders");
        assertThat(claim.leaseExpiresAt()).as("released at once").isEqualTo(T0);
    }

    @Test
    void theFirstFailureTimeSurvivesLaterAttempts() {
        consumer.failing("order-3", (k, c) -> new TransientFailure("down", "payments"));
        MessageProcessor p = processor(1);
        process(p, message("order-3", 1, null));
        clock.advance(Duration.ofMinutes(3));
        process(p, message("order-3", 2, null));

        FailureRecord f =
                store.find(key("order-3"), clock.instant()).orElseThrow().lastFailure();
        assertThat(f.firstFailedAt()).isEqualTo(T0);
        assertThat(f.lastFailedAt()).isEqualTo(T0.plus(Duration.ofMinutes(3)));
        assertThat(store.find(key("order-3"), clock.instant()).orElseThrow().failureCount())
                .isEqualTo(2);
    }

    @Test
    void aPermanentFailureIsDeadLetteredAtOnce() {
        consumer.failing("order-4", (k, c) -> new PermanentFailure("CardDeclined", "issuer said no"));

        MessageOutcome outcome = process(processor(1), message("order-4"));

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.key()).isEqualTo("scripted#order-4");
            assertThat(d.failure().failureClass()).isEqualTo(FailureClass.PERMANENT);
            assertThat(d.failure().classification().errorType()).isEqualTo("CardDeclined");
        });
        assertThat(store.find(key("order-4"), T0).orElseThrow().status()).isEqualTo(ClaimStatus.FAILED);
    }

    @Test
    void aProgrammingErrorInTheEffectIsDeadLetteredAsABugWithoutBurningRetries() {
        consumer.failing("order-20", (k, c) -> new IllegalArgumentException("Invalid header value"));

        MessageOutcome outcome = process(processor(1), message("order-20"));

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.failure().failureClass()).isEqualTo(FailureClass.PERMANENT);
            assertThat(d.failure().classification().errorType()).isEqualTo("Bug:IllegalArgumentException");
        });
        assertThat(store.find(key("order-20"), T0)
                        .orElseThrow()
                        .lastFailure()
                        .classification()
                        .errorType())
                .isEqualTo("Bug:IllegalArgumentException");
    }

    @Test
    void aKeyThatIsBlankOrHoldsControlCharactersIsASchemaFailureNamingTheKeyRule() {
        for (String bad : List.of(" ", "\t", "evt-1\nforged log line", "evt\u0000", "evt\u001b[2J", "evt\u2028x")) {
            MessageOutcome outcome = process(processor(1), message(bad + "|x"), keyAsIs());

            assertThat(outcome)
                    .as("key %s", bad.replace("\n", "\\n"))
                    .isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
                        assertThat(d.key()).isNull();
                        assertThat(d.failure().failureClass()).isEqualTo(FailureClass.SCHEMA);
                        assertThat(d.failure().classification().errorType()).isEqualTo("InvalidProducerKey");
                        assertThat(d.failure().classification().reason())
                                .contains("producer key")
                                .doesNotContain("forged");
                    });
        }
        assertThat(store.size()).as("no claim for a key that is not one").isZero();
    }

    @Test
    void aParseThatFailsWithAnUnclassifiedExceptionDoesNotEchoItsMessage() {
        ExternalEffectConsumer<String> leaky = new ExternalEffectConsumer<>() {
            @Override
            public String name() {
                return "leaky";
            }

            @Override
            public ParsedMessage<String> parse(IncomingMessage m) {
                throw new IllegalArgumentException("Unrecognized token 'jane.doe@example.com': was expecting JSON");
            }

            @Override
            public String apply(String event, EffectContext context) {
                return "never";
            }
        };

        MessageOutcome outcome = processor(1).process(leaky, message("jane.doe@example.com"), () -> REMAINING);

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.failure().failureClass()).isEqualTo(FailureClass.SCHEMA);
            assertThat(d.failure().classification().errorType()).isEqualTo("UnreadableMessage");
            assertThat(d.failure().classification().reason())
                    .contains("IllegalArgumentException")
                    .doesNotContain("jane.doe");
        });
    }

    @Test
    void aReusedKeyWithDifferentContentIsFlaggedNotSkipped() {
        MessageProcessor p = processor(1);
        process(p, message("order-5|10 EUR"));

        MessageOutcome outcome = process(p, message("order-5|99 EUR"));

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.failure().failureClass()).isEqualTo(FailureClass.PERMANENT);
            assertThat(d.failure().classification().errorType()).isEqualTo("PayloadMismatch");
            assertThat(d.failure().classification().reason()).contains("reused a key");
        });
        assertThat(consumer.applied("order-5")).isEqualTo(1);
    }

    @Test
    void aDeliveryWhileAnotherHoldsTheLeaseIsDeferredNoLaterThanTheLease() {
        store.claim(
                leases.request(
                        key("order-6"), fingerprint("order-6|"), MessageOrigin.UNKNOWN, T0, Duration.ofSeconds(3)),
                T0);

        MessageOutcome outcome = process(processor(1), message("order-6", 6, null));

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.Deferred.class, d -> {
            assertThat(d.leaseExpiresAt()).isEqualTo(T0.plusSeconds(10)); // the minimum lease
            assertThat(d.delaySeconds()).isBetween(1, 10);
        });
        assertThat(consumer.applied("order-6")).isZero();
    }

    @Test
    void aStalledWorkerIsSupersededAndCannotComplete() {
        MessageProcessor stalled = processor(1);
        MessageProcessor rescuer = processor(2);
        consumer.on("order-7", (k, context) -> {
            if (context.fencingToken() == 1) {
                // Worker 1 stalls past its lease; meanwhile the message comes back and worker 2 takes over.
                clock.advance(REMAINING.plusSeconds(5));
                consumer.on("order-7", (k2, c2) -> "rescued with token " + c2.fencingToken());
                assertThat(process(rescuer, message("order-7", 2, null)))
                        .isEqualTo(new MessageOutcome.Applied("scripted#order-7", 2, "rescued with token 2"));
            }
            return "late";
        });

        MessageOutcome outcome = process(stalled, message("order-7"));

        assertThat(outcome).isEqualTo(new MessageOutcome.Superseded("scripted#order-7", 1));
        ClaimRecord claim = store.find(key("order-7"), clock.instant()).orElseThrow();
        assertThat(claim.fencingToken()).isEqualTo(2);
        assertThat(claim.result()).isEqualTo("rescued with token 2");
    }

    @Test
    void aStalledWorkerWhoseEffectFailsAfterATakeoverLeavesTheMessageToTheNewHolder() {
        MessageProcessor stalled = processor(1);
        MessageProcessor rescuer = processor(2);
        consumer.on("order-13", (k, context) -> {
            if (context.fencingToken() == 1) {
                clock.advance(REMAINING.plusSeconds(5));
                consumer.on("order-13", (k2, c2) -> "rescued");
                process(rescuer, message("order-13", 2, null));
                throw new PermanentFailure("Rejected", "the stale worker's call was refused");
            }
            return "unreachable";
        });

        MessageOutcome outcome = process(stalled, message("order-13"));

        assertThat(outcome)
                .as("not dead-lettered by a worker that no longer holds the claim")
                .isEqualTo(new MessageOutcome.Superseded("scripted#order-13", 1));
        ClaimRecord claim = store.find(key("order-13"), clock.instant()).orElseThrow();
        assertThat(claim.status()).isEqualTo(ClaimStatus.COMPLETED);
        assertThat(claim.lastFailure()).isNull();
    }

    @Test
    void aCompletionThatCannotBeWrittenIsRetriedAgainstTheClaimStore() {
        dev.redrive.core.claim.ClaimStore failingCompletion = new RefusingClaims(store) {
            @Override
            public ClaimOutcome claim(ClaimRequest request, Instant now) {
                return store.claim(request, now);
            }

            @Override
            public FencedWrite complete(IdempotencyKey k, long token, String result, Instant expiresAt, Instant now) {
                throw new IllegalStateException("connection reset");
            }
        };
        MessageProcessor p = new MessageProcessor(
                failingCompletion, leases, backoff, new Mulberry32(1), clock, ProcessingListener.NONE);

        MessageOutcome outcome = p.process(consumer, message("order-14"), () -> REMAINING);

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
            assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
            assertThat(r.classification().dependency())
                    .as("the claim store failed, not the effect's dependency")
                    .isEqualTo(MessageProcessor.CLAIM_STORE);
        });
    }

    @Test
    void aClaimStoreOutageRetriesAsTransientAgainstTheClaimStore() {
        TransactionalClaimStore<InMemoryClaimStore.Write> down = new DownClaimStore();
        MessageProcessor p =
                new MessageProcessor(down, leases, backoff, new Mulberry32(1), clock, ProcessingListener.NONE);

        MessageOutcome outcome = p.process(consumer, message("order-8"), () -> REMAINING);

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.RetryLater.class, r -> {
            assertThat(r.classification().failureClass()).isEqualTo(FailureClass.TRANSIENT);
            assertThat(r.classification().dependency()).isEqualTo(MessageProcessor.CLAIM_STORE);
        });
        assertThat(consumer.applied("order-8")).isZero();
    }

    @Test
    void aTransactionalEffectCommitsWithItsClaimExactlyOnce() {
        AtomicLong revenue = new AtomicLong();
        TransactionalEffectConsumer<String[], InMemoryClaimStore.Write> counting = new TransactionalEffectConsumer<>() {
            @Override
            public String name() {
                return "revenue";
            }

            @Override
            public ParsedMessage<String[]> parse(IncomingMessage m) {
                return consumer.parse(m);
            }

            @Override
            public List<InMemoryClaimStore.Write> effectWrites(String[] event, EffectContext c) {
                return List.of(() -> revenue.addAndGet(Long.parseLong(event[1])));
            }
        };
        MessageProcessor p = processor(1);

        MessageOutcome first = p.process(counting, message("order-9|250"), () -> REMAINING);
        MessageOutcome again = p.process(counting, message("order-9|250"), () -> REMAINING);

        assertThat(first).isInstanceOf(MessageOutcome.Applied.class);
        assertThat(again).isInstanceOf(MessageOutcome.Duplicate.class);
        assertThat(revenue.get()).isEqualTo(250);
    }

    @Test
    void aTransactionalFailureKeepsTheFirstFailureTime() {
        TransactionalEffectConsumer<String[], InMemoryClaimStore.Write> failing = transactional((event, c) -> {
            throw new TransientFailure("revenue store throttled", "revenue-store");
        });
        MessageProcessor p = processor(1);
        p.process(failing, message("order-10", 1, null), () -> REMAINING);
        clock.advance(Duration.ofMinutes(3));

        p.process(failing, message("order-10", 2, null), () -> REMAINING);

        FailureRecord f = store.find(new IdempotencyKey("revenue", "order-10"), clock.instant())
                .orElseThrow()
                .lastFailure();
        assertThat(f.firstFailedAt()).isEqualTo(T0);
        assertThat(f.lastFailedAt()).isEqualTo(T0.plus(Duration.ofMinutes(3)));
    }

    @Test
    void aTransactionalDeadLetterCarriesTheFirstFailureTime() {
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        TransactionalEffectConsumer<String[], InMemoryClaimStore.Write> failing = transactional((event, c) -> {
            if (attempts.incrementAndGet() == 1) {
                throw new TransientFailure("revenue store throttled", "revenue-store");
            }
            throw new PermanentFailure("UnsupportedCurrency", "XXX is not reported");
        });
        MessageProcessor p = processor(1);
        p.process(failing, message("order-11", 1, null), () -> REMAINING);
        clock.advance(Duration.ofMinutes(3));

        MessageOutcome outcome = p.process(failing, message("order-11", 2, null), () -> REMAINING);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        MessageOutcome.DeadLettered.class,
                        d -> assertThat(d.failure().firstFailedAt()).isEqualTo(T0));
    }

    @Test
    void aClaimStoreFailureDeadLettersWithTheFirstFailureTimeTheClaimStillHolds() {
        consumer.failing("order-12", (k, c) -> new TransientFailure("down", "payments"));
        process(processor(1), message("order-12", 1, null));
        clock.advance(Duration.ofMinutes(3));
        MessageProcessor p = new MessageProcessor(
                new RefusingClaims(store), leases, backoff, new Mulberry32(1), clock, ProcessingListener.NONE);

        MessageOutcome outcome = p.process(consumer, message("order-12", 2, null), () -> REMAINING);

        assertThat(outcome).isInstanceOfSatisfying(MessageOutcome.DeadLettered.class, d -> {
            assertThat(d.failure().classification().dependency()).isEqualTo(MessageProcessor.CLAIM_STORE);
            assertThat(d.failure().firstFailedAt()).isEqualTo(T0);
            assertThat(d.failure().lastFailedAt()).isEqualTo(T0.plus(Duration.ofMinutes(3)));
        });
    }

    private TransactionalEffectConsumer<String[], InMemoryClaimStore.Write> transactional(
            java.util.function.BiFunction<String[], EffectContext, List<InMemoryClaimStore.Write>> writes) {
        return new TransactionalEffectConsumer<>() {
            @Override
            public String name() {
                return "revenue";
            }

            @Override
            public dev.redrive.core.consumer.ParsedMessage<String[]> parse(IncomingMessage m) {
                return consumer.parse(m);
            }

            @Override
            public List<InMemoryClaimStore.Write> effectWrites(String[] event, EffectContext c) {
                return writes.apply(event, c);
            }
        };
    }

    /** Claims refused for good (access denied); reads still work. */
    static class RefusingClaims implements dev.redrive.core.claim.ClaimStore {
        private final InMemoryClaimStore delegate;

        RefusingClaims(InMemoryClaimStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public ClaimOutcome claim(ClaimRequest request, Instant now) {
            throw new PermanentFailure("AccessDenied", "the role may not write claims");
        }

        @Override
        public FencedWrite complete(IdempotencyKey key, long token, String result, Instant expiresAt, Instant now) {
            return delegate.complete(key, token, result, expiresAt, now);
        }

        @Override
        public FencedWrite release(IdempotencyKey key, long token, FailureRecord failure, Instant now) {
            return delegate.release(key, token, failure, now);
        }

        @Override
        public Optional<ClaimRecord> find(IdempotencyKey key, Instant now) {
            return delegate.find(key, now);
        }

        @Override
        public FencedWrite recordFailure(ClaimRequest request, FailureRecord failure, Instant now) {
            throw new PermanentFailure("AccessDenied", "the role may not write claims");
        }
    }

    /** Reads {@code key|payload} and hands the key over unchecked (the scripted consumer refuses blank keys itself). */
    private ExternalEffectConsumer<String[]> keyAsIs() {
        return new ExternalEffectConsumer<>() {
            @Override
            public String name() {
                return "scripted";
            }

            @Override
            public ParsedMessage<String[]> parse(IncomingMessage m) {
                String[] parts = m.body().split("\\|", 2);
                return new ParsedMessage<>(parts, parts[0], m.body());
            }

            @Override
            public String apply(String[] event, EffectContext context) {
                return "applied";
            }
        };
    }

    private MessageOutcome process(MessageProcessor p, IncomingMessage m, IdempotentConsumer<?> c) {
        return p.process(c, m, () -> REMAINING);
    }

    private static IdempotencyKey key(String k) {
        return new IdempotencyKey("scripted", k);
    }

    private static String fingerprint(String canonical) {
        return PayloadFingerprint.of(canonical);
    }

    /** A claim store whose every call fails like an unreachable database. */
    static final class DownClaimStore implements TransactionalClaimStore<InMemoryClaimStore.Write> {
        private static RuntimeException down() {
            return new IllegalStateException("connection refused", new ConnectException("connection refused"));
        }

        @Override
        public ClaimOutcome claim(ClaimRequest request, Instant now) {
            throw down();
        }

        @Override
        public FencedWrite complete(IdempotencyKey key, long token, String result, Instant expiresAt, Instant now) {
            throw down();
        }

        @Override
        public FencedWrite release(IdempotencyKey key, long token, FailureRecord failure, Instant now) {
            throw down();
        }

        @Override
        public Optional<ClaimRecord> find(IdempotencyKey key, Instant now) {
            throw down();
        }

        @Override
        public ClaimOutcome claimAndCommit(
                ClaimRequest request,
                LongFunction<List<InMemoryClaimStore.Write>> effectWrites,
                String result,
                Instant now) {
            throw down();
        }

        @Override
        public FencedWrite recordFailure(ClaimRequest request, FailureRecord failure, Instant now) {
            throw down();
        }
    }
}
