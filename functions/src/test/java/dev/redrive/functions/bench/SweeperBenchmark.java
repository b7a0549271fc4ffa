package dev.redrive.functions.bench;

import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.functions.testing.CountedClients;
import dev.redrive.functions.testing.SweeperRig;
import dev.redrive.localstack.LocalAws;
import dev.redrive.localstack.LocalResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Prints the AWS calls the sweeper makes for N dead letters (quarantine + pre-approved replay), counted by an SDK
 * interceptor, next to the baseline of moving the same number of messages from a DLQ to its source one message at a
 * time (receive one, send one, delete one), measured in the same run. Run with {@code bin/benchmark sweeper [N]}.
 */
public final class SweeperBenchmark {

    private SweeperBenchmark() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        LocalAws aws = LocalAws.shared();
        System.out.println("Redrive sweeper benchmark: " + n + " dead letters — local AWS: " + aws.describe());

        SweeperRig rig = new SweeperRig(aws);
        rig.approveFinishedWindow();
        rig.deadLetter(n, "bench");
        rig.clients.reset();
        long t0 = System.nanoTime();
        SweepReport report = rig.sweeper(s -> s).sweep(rig.route, "bench", Duration.ofMinutes(30), () -> true);
        double sweepSeconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Integer> sqs = rig.clients.sqsCalls().snapshot();
        Map<String, Integer> ddb = rig.clients.dynamoDbCalls().snapshot();

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
        double baselineSeconds = (System.nanoTime() - t1) / 1e9;
        int baselineCalls = baseline.sqsCalls().total();

        System.out.println();
        System.out.println(String.format(
                Locale.ROOT,
                "sweeper: quarantined %d, replay outcomes %s, in %.1f s",
                report.quarantinedTotal(),
                report.replayOutcomes(),
                sweepSeconds));
        System.out.println("  SQS calls      " + rig.clients.sqsCalls().total() + "  " + sqs);
        System.out.println("  DynamoDB calls " + rig.clients.dynamoDbCalls().total() + "  " + ddb);
        System.out.println(String.format(
                Locale.ROOT, "baseline: moved %d one message at a time in %.1f s", moved, baselineSeconds));
        System.out.println(
                "  SQS calls      " + baselineCalls + "  " + baseline.sqsCalls().snapshot());
        System.out.println(String.format(
                Locale.ROOT,
                "SQS calls per %d dead letters: sweeper %d vs one-at-a-time %d" + " = %.3f of the baseline",
                n,
                rig.clients.sqsCalls().total(),
                baselineCalls,
                (double) rig.clients.sqsCalls().total() / baselineCalls));
        System.out.println(String.format(
                Locale.ROOT,
                "SQS calls per dead letter: sweeper %.3f, baseline %.3f",
                (double) rig.clients.sqsCalls().total() / n,
                (double) baselineCalls / n));
        System.exit(0);
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
