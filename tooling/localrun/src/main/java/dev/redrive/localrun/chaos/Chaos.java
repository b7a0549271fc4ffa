package dev.redrive.localrun.chaos;

import dev.redrive.checkout.CheckoutNames;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.SqsEventSourcePoller;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localstack.PaymentProviderSimulator;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The chaos run's machinery inside the local system: the fault injector, the fencing journal the proxies write, the
 * per-sandbox fault hooks (the producer's crash points on the checkout's and the relay's), the copies of what the relay
 * publishes ({@link Redelivery}), the payment provider's hangs, and the few settings the run changes so faults heal
 * within a run (the sweeper's timeout, the reconciliation's grace and lease).
 */
public final class Chaos implements AutoCloseable {

    /** A copy of a published message is sent within this long of its original. */
    static final Duration COPY_SPREAD = Duration.ofSeconds(20);

    /** How long the payment provider holds a hung authorization: past the checkout's 5 s call timeout. */
    public static final Duration PROVIDER_HANG = Duration.ofSeconds(7);

    /**
     * The reconciliation's grace after a checkout's lease (15 min on AWS): a customer of this run retries within
     * seconds or never, so what one gave up on is voided within the run.
     */
    public static final Duration RECONCILIATION_GRACE = Duration.ofSeconds(20);

    /**
     * How long the reconciliation holds an attempt it voids (1 min on AWS): a run killed between the void and the
     * release leaves the attempt VOIDING until this lease and the grace are over, then the next run ends it.
     */
    static final Duration RECONCILIATION_LEASE = Duration.ofSeconds(10);

    private final ChaosOptions options;
    private final FaultInjector faults;
    private final FencingJournal journal = new FencingJournal();
    private final MessageTracker messages = new MessageTracker();
    private final CallClassifier classifier;
    private final Map<String, EffectHang> scriptedHangs = new ConcurrentHashMap<>();
    private final ProducerCrashes producerCrashes;
    private final Redelivery redelivery;

    /** @param sqs the run's own SQS client (the copies of published messages go through it) */
    public Chaos(ChaosOptions options, CallClassifier classifier, SqsClient sqs) {
        this.options = options;
        this.faults = new FaultInjector(options.plan());
        this.classifier = classifier;
        this.producerCrashes = ProducerCrashes.drawnBy(faults);
        this.redelivery = new Redelivery(
                sqs, messages, options.plan().seed(), options.maxCopies(), COPY_SPREAD, options.producers());
    }

    public ChaosOptions options() {
        return options;
    }

    public FaultInjector faults() {
        return faults;
    }

    public FencingJournal journal() {
        return journal;
    }

    public MessageTracker messages() {
        return messages;
    }

    public CallClassifier classifier() {
        return classifier;
    }

    /** The copies of what the relay publishes. */
    public Redelivery redelivery() {
        return redelivery;
    }

    /** The producer's crash points, as the fault plan draws them. */
    public ProducerCrashes producerCrashes() {
        return producerCrashes;
    }

    /**
     * The payment provider's faults: an authorization hangs past the checkout's timeout at the plan's
     * {@link FaultKind#PROVIDER_HANG} rate, per call, having authorized or not (drawn too).
     */
    public PaymentProviderSimulator.FaultPolicy providerFaults() {
        return key -> {
            FaultInjector.Draw draw = faults.draw("authorization", key);
            if (!draw.strikes(FaultKind.PROVIDER_HANG)) {
                return Optional.empty();
            }
            return Optional.of(
                    draw.uniform(5) < 0.5
                            ? PaymentProviderSimulator.Fault.HANG_AFTER_AUTHORIZING
                            : PaymentProviderSimulator.Fault.HANG_BEFORE_AUTHORIZING);
        };
    }

    /**
     * A hang aimed at one key, for tests: the next effect call for {@code key} (a consumer's {@code consumer#id}) is
     * held past its lease as the chaos run's pause holds one ({@link EffectHang}), and let go only once the test has
     * also called {@link EffectHang#release()}. It strikes whether or not the plan's faults are enabled and is not
     * counted among them.
     */
    public EffectHang hangNextEffectOf(String key, EffectHang.Freeze freeze, EffectHang.Delivery delivery) {
        EffectHang hang = EffectHang.untilReleased(freeze, delivery);
        scriptedHangs.put(key, hang);
        return hang;
    }

    /**
     * Puts the faults of {@code sandbox}'s slot on its proxies and its Runtime API; on the checkout's, the relay's and
     * the reconciliation's DynamoDB proxies the producer's crash points come first (a sandbox killed as it sends a call meets no other
     * fault there), and on the relay's SQS proxy the copies of what SQS accepted follow.
     */
    public void attach(String handler, FunctionInstance sandbox, Collection<AwsTrafficProxy> proxies) {
        SandboxFaults hook = new SandboxFaults(
                handler, part(handler), () -> sandbox, classifier, faults, journal, messages, scriptedHangs::remove);
        boolean producer = CheckoutNames.CHECKOUT.equals(handler)
                || CheckoutNames.OUTBOX_RELAY.equals(handler)
                || CheckoutNames.CHECKOUT_RECONCILIATION.equals(handler);
        for (AwsTrafficProxy p : proxies) {
            if (producer && "dynamodb".equals(p.service())) {
                p.hook(Hook.inOrder(producerCrashes.hook(handler, () -> sandbox), hook));
            } else if (CheckoutNames.OUTBOX_RELAY.equals(handler) && "sqs".equals(p.service())) {
                p.hook(Hook.inOrder(hook, redelivery.hook()));
            } else {
                p.hook(hook);
            }
        }
        sandbox.listener(hook);
    }

    /**
     * Function settings the run changes. The sweeper's: its invocation is given {@link ChaosOptions#sweeperTimeout}
     * instead of the template's 5 minutes (its lease, and so the wait after a killed sweeper, is sized from it); the
     * margin it keeps back and the invisibility of the dead letters it receives are scaled down with it.
     */
    public Map<String, String> environmentOverrides(String handler) {
        if (CheckoutNames.CHECKOUT_RECONCILIATION.equals(handler)) {
            return Map.of(
                    "REDRIVE_CHECKOUT_RECONCILIATION_GRACE", RECONCILIATION_GRACE.toString(),
                    "REDRIVE_CHECKOUT_RECONCILIATION_LEASE", RECONCILIATION_LEASE.toString());
        }
        if (!Handlers.DLQ_SWEEPER.equals(handler)) {
            return Map.of();
        }
        Duration timeout = options.sweeperTimeout();
        long marginSeconds = Math.max(2, timeout.toSeconds() / 4);
        return Map.of(
                "REDRIVE_SWEEPER_DEADLINE_MARGIN",
                "PT" + marginSeconds + "S",
                "REDRIVE_SWEEPER_RECEIVE_VISIBILITY_SECONDS",
                Long.toString(Math.max(10, timeout.toSeconds())));
    }

    /** The faults SQS answers the event-source mapping of {@code function} with (its proxy's hook). */
    public AwsTrafficProxy.Hook eventSourceFaults(String function) {
        return new EventSourceFaults(function, faults);
    }

    /** The event-source mapping's part: its worker can die between the answer and the delete. */
    public SqsEventSourcePoller.Listener pollerListener(String function, String queueUrl) {
        return new SqsEventSourcePoller.Listener() {
            @Override
            public void received(List<Message> batch) {
                messages.received(queueUrl, batch);
            }

            @Override
            public boolean diesBeforeDelete(List<Message> batch) {
                return faults.draw(Step.RETURNED.id(), function)
                        .strikes(FaultKind.SANDBOX_KILL, faults.plan().killRate(Step.RETURNED));
            }

            @Override
            public void deleted(List<String> messageIds) {
                messages.deleted(queueUrl, messageIds);
            }
        };
    }

    @Override
    public void close() {
        redelivery.close();
    }

    static SandboxFaults.Part part(String handler) {
        return switch (handler) {
            case CheckoutNames.CONFIRMATION_EMAIL, CheckoutNames.REVENUE_ANALYTICS -> SandboxFaults.Part.CONSUMER;
            case Handlers.DLQ_SWEEPER -> SandboxFaults.Part.SWEEPER;
            default -> SandboxFaults.Part.OTHER;
        };
    }
}
