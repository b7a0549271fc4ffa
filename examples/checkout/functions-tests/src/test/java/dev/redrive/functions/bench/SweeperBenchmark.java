package dev.redrive.functions.bench;

import dev.redrive.aws.ledger.DynamoDbLeaseStore;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.functions.testing.SweeperRig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Sweeps N dead letters (quarantine + pre-approved replay) on local AWS, in interleaved rounds, by two paths chosen by
 * a switch: the current one (fencing in each record's conditional write, batched ledger calls, replay checks four at
 * a time) and the one before issue 16 ({@link LeaseReadPerWriteLedger}: a lease read before every write, one record
 * per call; checks one at a time). Not switched back: an arrival with attached failure metadata no longer reads its
 * claim, so the "before" path makes 1,000 calls fewer than the code before did (8,018 instead of 9,018). Prints, per
 * path, dead letters swept per second, the AWS calls (counted by an SDK interceptor) and the time spent inside them;
 * then the SQS calls of moving the same number of messages one at a time (receive one, send one, delete one). Run
 * with {@code bin/benchmark sweeper [N] [rounds]}.
 */
public final class SweeperBenchmark {

    private SweeperBenchmark() {}

    /** One sweep of one rig. */
    private record Run(
            boolean before,
            int deadLetters,
            double seconds,
            SweepReport report,
            Map<String, Integer> dynamoDb,
            Map<String, Integer> sqs,
            Map<String, Long> dynamoDbMillis,
            Map<String, Long> sqsMillis) {

        double perSecond() {
            return deadLetters / seconds;
        }

        int dynamoDbCalls() {
            return dynamoDb.values().stream().mapToInt(Integer::intValue).sum();
        }

        int sqsCalls() {
            return sqs.values().stream().mapToInt(Integer::intValue).sum();
        }

        double dynamoDbShare() {
            return dynamoDbMillis.values().stream().mapToLong(Long::longValue).sum() / 1000.0 / seconds;
        }

        double sqsShare() {
            return sqsMillis.values().stream().mapToLong(Long::longValue).sum() / 1000.0 / seconds;
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        LocalAws aws = LocalAws.shared();
        System.out.println("Redrive sweeper benchmark: " + n + " dead letters, " + rounds
                + " interleaved rounds per path — local AWS: " + aws.describe());
        sweep(aws, 50, false); // warm-up of both paths, not counted
        sweep(aws, 50, true);
        List<Run> now = new ArrayList<>();
        List<Run> before = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (boolean old : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                Run run = sweep(aws, n, old);
                (old ? before : now).add(run);
                print(round, run);
            }
        }

        Baseline baseline = oneAtATime(aws, n);
        Run a = before.get(0);
        Run b = now.get(0);
        double perSecondNow = median(now);
        double perSecondBefore = median(before);
        System.out.println();
        System.out.println(String.format(
                Locale.ROOT,
                "dead letters swept per second (median of %d rounds): %.1f now vs %.1f before = %.1fx",
                rounds,
                perSecondNow,
                perSecondBefore,
                perSecondNow / perSecondBefore));
        System.out.println(String.format(
                Locale.ROOT,
                "DynamoDB calls per dead letter: %.3f now vs %.3f before",
                (double) b.dynamoDbCalls() / n,
                (double) a.dynamoDbCalls() / n));
        System.out.println(String.format(
                Locale.ROOT,
                "time inside DynamoDB calls (summed over threads): %.0f%% of the sweep now, %.0f%% before; inside SQS"
                        + " calls: %.0f%% now",
                100 * b.dynamoDbShare(),
                100 * a.dynamoDbShare(),
                100 * b.sqsShare()));
        System.out.println(String.format(
                Locale.ROOT, "baseline: moved %d one message at a time in %.1f s", baseline.moved, baseline.seconds));
        System.out.println("  SQS calls      " + baseline.calls + "  " + baseline.byOperation);
        System.out.println(String.format(
                Locale.ROOT,
                "SQS calls per %d dead letters: sweeper %d vs one-at-a-time %d" + " = %.3f of the baseline",
                n,
                b.sqsCalls(),
                baseline.calls,
                (double) b.sqsCalls() / baseline.calls));
        System.out.println(String.format(
                Locale.ROOT,
                "SQS calls per dead letter: sweeper %.3f, baseline %.3f",
                (double) b.sqsCalls() / n,
                (double) baseline.calls / n));
        System.exit(0);
    }

    private static Run sweep(LocalAws aws, int n, boolean before) {
        SweeperRig rig = new SweeperRig(aws);
        rig.approveFinishedWindow();
        rig.deadLetter(n, "bench");
        DynamoDbLeaseStore leases = new DynamoDbLeaseStore(rig.clients.dynamoDb(), rig.control);
        Sweeper sweeper = before
                ? rig.sweeper(s -> s, 120, l -> new LeaseReadPerWriteLedger(l, leases, Clock.systemUTC()), 1)
                : rig.sweeper(s -> s);
        rig.clients.reset();
        long t0 = System.nanoTime();
        SweepReport report = sweeper.sweep(rig.route, "bench", Duration.ofMinutes(30), () -> true);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Run(
                before,
                n,
                seconds,
                report,
                rig.clients.dynamoDbCalls().snapshot(),
                rig.clients.sqsCalls().snapshot(),
                rig.clients.dynamoDbCalls().millis(),
                rig.clients.sqsCalls().millis());
    }

    private static void print(int round, Run run) {
        System.out.println();
        System.out.println(String.format(
                Locale.ROOT,
                "round %d, %s: quarantined %d, replay outcomes %s, in %.1f s = %.1f dead letters per second",
                round,
                run.before() ? "before (lease read per write, one record per call)" : "now",
                run.report().quarantinedTotal(),
                run.report().replayOutcomes(),
                run.seconds(),
                run.perSecond()));
        System.out.println("  SQS calls      " + run.sqsCalls() + "  " + run.sqs());
        System.out.println(String.format(
                Locale.ROOT,
                "  DynamoDB calls %d (%.3f per dead letter)  %s",
                run.dynamoDbCalls(),
                (double) run.dynamoDbCalls() / run.deadLetters(),
                run.dynamoDb()));
        System.out.println("  ms inside SQS calls      " + run.sqsMillis());
        System.out.println("  ms inside DynamoDB calls " + run.dynamoDbMillis());
    }

    private static double median(List<Run> runs) {
        double[] sorted = runs.stream().mapToDouble(Run::perSecond).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private record Baseline(int moved, double seconds, int calls, Map<String, Integer> byOperation) {}

    private static Baseline oneAtATime(LocalAws aws, int n) {
        CountedClients baseline = CountedClients.on(aws);
        LocalResources.QueuePair pair =
                LocalResources.createQueuePair(aws, "bench-baseline-" + System.nanoTime(), 4, 30);
        fill(aws, pair.dlqUrl(), n);
        long t1 = System.nanoTime();
        int moved = 0;
        while (true) {
            List<Message> one = baseline.sqs()
                    .receiveMessage(b ->
                            b.queueUrl(pair.dlqUrl()).maxNumberOfMessages(1).waitTimeSeconds(0))
                    .messages();
            if (one.isEmpty()) {
                break;
            }
            Message m = one.get(0);
            baseline.sqs().sendMessage(b -> b.queueUrl(pair.url()).messageBody(m.body()));
            baseline.sqs().deleteMessage(b -> b.queueUrl(pair.dlqUrl()).receiptHandle(m.receiptHandle()));
            moved++;
        }
        return new Baseline(
                moved,
                (System.nanoTime() - t1) / 1e9,
                baseline.sqsCalls().total(),
                baseline.sqsCalls().snapshot());
    }

    private static void fill(LocalAws aws, String url, int n) {
        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(SendMessageBatchRequestEntry.builder()
                    .id("m" + batch.size())
                    .messageBody("{\"n\":" + i + "}")
                    .build());
            if (batch.size() == 10 || i == n - 1) {
                List<SendMessageBatchRequestEntry> entries = List.copyOf(batch);
                aws.sqs().sendMessageBatch(b -> b.queueUrl(url).entries(entries));
                batch.clear();
            }
        }
    }
}
