package dev.redrive.localrun.chaos;

import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.localrun.eventsource.AwsTrafficProxy;
import dev.redrive.localrun.eventsource.SqsEventSourcePoller;
import dev.redrive.localrun.lambda.FunctionInstance;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The chaos run's machinery inside the local system: the fault injector, the fencing journal the proxies write, the
 * per-sandbox fault hooks, and the few settings the run changes so faults heal within a run (the sweeper's timeout).
 */
public final class Chaos {

    private final ChaosOptions options;
    private final FaultInjector faults;
    private final FencingJournal journal = new FencingJournal();
    private final MessageTracker messages = new MessageTracker();
    private final CallClassifier classifier;
    private final Map<String, EffectHang> scriptedHangs = new ConcurrentHashMap<>();

    public Chaos(ChaosOptions options, CallClassifier classifier) {
        this.options = options;
        this.faults = new FaultInjector(options.plan());
        this.classifier = classifier;
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

    /** Puts the faults of {@code sandbox}'s slot on its proxies and its Runtime API. */
    public void attach(String handler, FunctionInstance sandbox, Collection<AwsTrafficProxy> proxies) {
        SandboxFaults hook = new SandboxFaults(
                handler, part(handler), () -> sandbox, classifier, faults, journal, messages, scriptedHangs::remove);
        proxies.forEach(p -> p.hook(hook));
        sandbox.listener(hook);
    }

    /**
     * Function settings the run changes. The sweeper's: its invocation is given {@link ChaosOptions#sweeperTimeout}
     * instead of the template's 5 minutes (its lease, and so the wait after a killed sweeper, is sized from it); the
     * margin it keeps back and the invisibility of the dead letters it receives are scaled down with it.
     */
    public Map<String, String> environmentOverrides(String handler) {
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

    static SandboxFaults.Part part(String handler) {
        return switch (handler) {
            case Handlers.CONFIRMATION_EMAIL, Handlers.REVENUE_ANALYTICS -> SandboxFaults.Part.CONSUMER;
            case Handlers.DLQ_SWEEPER -> SandboxFaults.Part.SWEEPER;
            default -> SandboxFaults.Part.OTHER;
        };
    }
}
