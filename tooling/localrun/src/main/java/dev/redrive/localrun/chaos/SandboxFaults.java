package dev.redrive.localrun.chaos;

import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.SandboxListener;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The faults of one sandbox slot, injected from its counting proxies and its Runtime API: it sees every AWS call the
 * sandbox makes (so it knows the step the sandbox is at) and can answer with an AWS error, add latency, drop the
 * connection, kill the sandbox (SIGKILL) at a named step, or hang an effect call past its claim's lease
 * ({@link EffectHang}). It also writes what AWS accepted into the {@link FencingJournal}.
 */
public final class SandboxFaults implements Hook, SandboxListener {

    /** How the slot's function takes part: consumers get the step kills and pauses, the sweeper its own kills. */
    public enum Part {
        CONSUMER,
        SWEEPER,
        OTHER
    }

    private record InFlight(
            AwsCall call, FaultInjector.Draw draw, long sentAt, long signedAt, String staleWhy, long generation) {}

    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final String function;
    private final Part part;
    private final Supplier<FunctionInstance> sandbox;
    private final CallClassifier classifier;
    private final FaultInjector faults;
    private final FencingJournal journal;
    private final MessageTracker messages;
    private final Function<String, EffectHang> scriptedHangs;
    private final ThreadLocal<InFlight> current = new ThreadLocal<>();

    public SandboxFaults(
            String function,
            Part part,
            Supplier<FunctionInstance> sandbox,
            CallClassifier classifier,
            FaultInjector faults,
            FencingJournal journal,
            MessageTracker messages,
            Function<String, EffectHang> scriptedHangs) {
        this.function = function;
        this.part = part;
        this.sandbox = sandbox;
        this.classifier = classifier;
        this.faults = faults;
        this.journal = journal;
        this.messages = messages;
        this.scriptedHangs = scriptedHangs;
    }

    @Override
    public void eventTaken(FunctionInstance sb) {
        if (part == Part.CONSUMER && killStrikes(Step.TAKES_EVENT, function)) {
            sb.kill();
        }
    }

    @Override
    public Verdict before(Call wire) {
        FunctionInstance sb = sandbox.get();
        if (sb != null && sb.doomed()) {
            return Verdict.drop(); // the sandbox is being killed: nothing more it sends arrives
        }
        long generation = sb == null ? -1 : sb.generation();
        AwsCall call = classifier.classify(wire);
        FaultInjector.Draw draw = faults.draw(call.step(), identity(call));
        if (part == Part.CONSUMER && sb != null && call.is(CallRole.EFFECT) && killStrikes(Step.EFFECT_CALL, call)) {
            sb.kill(generation);
            return Verdict.drop();
        }
        if (part == Part.CONSUMER && sb != null && call.is(CallRole.EFFECT)) {
            EffectHang hang = scriptedHangs.apply(call.key());
            if (hang == null && draw.strikes(FaultKind.SANDBOX_PAUSE)) {
                hang = EffectHang.pause();
            }
            if (hang != null && !hangPastTheLease(sb, generation, call, hang, draw)) {
                return Verdict.drop();
            }
        }
        Verdict fault = awsFault(call, draw);
        if (fault != null) {
            return fault;
        }
        long sentAt = System.currentTimeMillis();
        long signedAt = -1; // read for effect calls alone: every other call passes through here too
        // A transactional effect carries its own claim: AWS decides its fencing within the one call.
        String staleWhy = null;
        if (call.is(CallRole.EFFECT)) {
            signedAt = signedAt(wire);
            staleWhy = call.is(CallRole.CLAIM)
                    ? journal.effectCall(null, -1, sentAt, signedAt)
                    : journal.effectCall(call.key(), call.fencingToken(), sentAt, signedAt);
        }
        current.set(new InFlight(call, draw, sentAt, signedAt, staleWhy, generation));
        if (draw.strikes(FaultKind.LATENCY)) {
            long max = faults.plan().maxLatency().toMillis();
            return Verdict.delay(max / 10 + (long) (draw.uniform(7) * (max - max / 10)));
        }
        return Verdict.pass();
    }

    /** When the sandbox signed the call: its SigV4 {@code X-Amz-Date}, to the second (epoch millis), or -1. */
    static long signedAt(Call wire) {
        String date = wire.header("x-amz-date");
        if (date == null) {
            return -1;
        }
        try {
            return AMZ_DATE.parse(date, Instant::from).toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }

    private Verdict awsFault(AwsCall call, FaultInjector.Draw draw) {
        switch (call.service()) {
            case "dynamodb" -> {
                if (draw.strikes(FaultKind.DYNAMODB_THROTTLE)) {
                    return AwsFaults.dynamoDbThrottle();
                }
                if (draw.strikes(FaultKind.DYNAMODB_INTERNAL_ERROR)) {
                    return AwsFaults.dynamoDbInternalError();
                }
                if (call.write() && draw.strikes(FaultKind.DYNAMODB_TRANSACTION_CONFLICT)) {
                    boolean transaction = call.operation().startsWith("Transact");
                    int conflicting = (int) (draw.uniform(3) * call.items());
                    return AwsFaults.dynamoDbTransactionConflict(transaction, call.items(), conflicting);
                }
            }
            case "s3" -> {
                if (call.write() && draw.strikes(FaultKind.S3_SLOW_DOWN)) {
                    return AwsFaults.s3SlowDown();
                }
            }
            case "sqs" -> {
                if (draw.strikes(FaultKind.SQS_INTERNAL_ERROR)) {
                    return AwsFaults.sqsInternalError();
                }
            }
            default -> {}
        }
        return null;
    }

    @Override
    public Verdict after(Call wire, Reply reply) {
        InFlight f = current.get();
        current.remove();
        if (f == null) {
            return Verdict.pass();
        }
        AwsCall call = f.call();
        boolean ok = reply.status() / 100 == 2;
        if (ok) {
            record(call, f);
            if ("sqs".equals(call.service())) {
                SqsTraffic.track(messages, call, wire, reply);
            }
        }
        FunctionInstance sb = sandbox.get();
        if (sb != null && part == Part.CONSUMER) {
            Verdict kill = consumerKill(sb, f.generation(), call, reply, ok);
            if (kill != null) {
                return kill;
            }
        }
        if (sb != null && part == Part.SWEEPER && sweeperStep(call) && f.draw().strikes(FaultKind.SWEEPER_KILL)) {
            sb.kill(f.generation());
            return Verdict.drop();
        }
        if (f.draw().strikes(FaultKind.CONNECTION_RESET)) {
            return Verdict.drop();
        }
        return Verdict.pass();
    }

    private void record(AwsCall call, InFlight f) {
        if (call.is(CallRole.CLAIM)) {
            journal.granted(call.key(), call.fencingToken(), call.leaseEnd());
        }
        if (call.is(CallRole.EFFECT)) {
            journal.effectAccepted(call.key(), call.fencingToken(), f.sentAt(), f.signedAt(), f.staleWhy());
        }
        if (call.is(CallRole.COMPLETION)) {
            journal.completed(call.key());
        }
    }

    private Verdict consumerKill(FunctionInstance sb, long generation, AwsCall call, Reply reply, boolean ok) {
        if (call.is(CallRole.CLAIM) && killStrikes(Step.CLAIM_WRITE, call)) {
            sb.kill(generation);
            return Verdict.drop();
        }
        if (call.is(CallRole.EFFECT) && (ok || reply.status() == 412) && killStrikes(Step.EFFECT_RESPONSE, call)) {
            sb.doom(generation); // it has the answer; whatever it sends next (the completion) never arrives
            return Verdict.passThen(() -> sb.kill(generation));
        }
        if (call.is(CallRole.COMPLETION) && ok && killStrikes(Step.COMPLETED, call)) {
            sb.kill(generation);
            return Verdict.drop();
        }
        return null;
    }

    /**
     * Holds the sandbox's effect call past its claim's lease ({@link EffectHang}): freezes the sandbox at once or the
     * moment it answers its invocation, until 1 to 3 s past the lease, and waits until it is thawed or has ended (and,
     * for a scripted hang, until the test lets the call go). Returns whether the call is then sent on.
     *
     * <p>Either way the sandbox never resumes with the call past its lease. Frozen at once, it is ended at its
     * function timeout, which comes before its lease ends (the lease is the invocation's remaining time plus the
     * clock-skew margin). Waiting for it to answer, it never answers: a consumer's handler does not return while one
     * of its records is still running (issue 12), so it is ended at its timeout too. Only a sandbox that answered with
     * its effect still running would be frozen and thawed past its lease, still holding the call.
     */
    private boolean hangPastTheLease(
            FunctionInstance sb, long generation, AwsCall call, EffectHang hang, FaultInjector.Draw draw) {
        long leaseEnd = call.leaseEnd() > 0 ? call.leaseEnd() : journal.leaseEnd(call.key(), call.fencingToken());
        if (leaseEnd <= 0) {
            leaseEnd = System.currentTimeMillis() + sb.invocationTimeoutMillis() + 2_000;
        }
        Instant thawAt = EffectHang.thawAfter(leaseEnd, draw.uniform(11));
        FunctionInstance.Freeze freeze = hang.freeze() == EffectHang.Freeze.NOW
                ? sb.freezeNow(generation, thawAt)
                : sb.freezeAfterInvocation(thawAt);
        hang.nowHeld();
        long atMost = Math.max(0, leaseEnd - System.currentTimeMillis()) + sb.invocationTimeoutMillis() + 60_000;
        boolean wasFrozen = false;
        try {
            if (freeze != null) {
                freeze.released().get(atMost, TimeUnit.MILLISECONDS);
                wasFrozen = freeze.applied().getNow(false);
            }
            hang.releaseSignal().get(atMost, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            sb.thaw();
        }
        boolean runs = sb.runs(generation);
        boolean send = runs || hang.delivery() == EffectHang.Delivery.ON_THE_WIRE;
        hang.letGo(new EffectHang.Outcome(runs, send, wasFrozen));
        return send;
    }

    private boolean killStrikes(Step step, AwsCall call) {
        return killStrikes(step, identity(call));
    }

    private boolean killStrikes(Step step, String identity) {
        return faults.draw(step.id(), identity)
                .strikes(FaultKind.SANDBOX_KILL, faults.plan().killRate(step));
    }

    /**
     * Where a sweeper can be killed mid-sweep: right after AWS answered any of its calls inside a sweep (its lease
     * taken or released, a dead letter received or deleted, the ledger read or written, a claim looked up, a replay
     * sent, an archive written). Not its queue-depth reads, which come before a sweep takes its lease.
     */
    private static boolean sweeperStep(AwsCall call) {
        return call.is(CallRole.DLQ_RECEIVE)
                || call.is(CallRole.DLQ_DELETE)
                || call.is(CallRole.LEDGER_WRITE)
                || call.is(CallRole.LEDGER_READ)
                || call.is(CallRole.CONTROL_WRITE)
                || call.is(CallRole.CONTROL_READ)
                || call.is(CallRole.CLAIM_READ)
                || call.is(CallRole.REPLAY_SEND)
                || call.is(CallRole.ARCHIVE_WRITE);
    }

    private String identity(AwsCall call) {
        return call.key() != null ? call.key() : function + ":" + call.operation();
    }
}
