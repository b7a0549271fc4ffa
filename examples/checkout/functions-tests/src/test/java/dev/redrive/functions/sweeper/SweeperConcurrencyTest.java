package dev.redrive.functions.sweeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.redrive.core.replay.ReplayMarker;
import dev.redrive.core.sweeper.ArrivedDeadLetter;
import dev.redrive.core.sweeper.DeadLetterSource;
import dev.redrive.core.sweeper.SweepReport;
import dev.redrive.core.sweeper.Sweeper;
import dev.redrive.functions.testing.SweeperRig;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** Sweepers racing and sweepers dying, on local AWS. */
@LocalAwsTest
class SweeperConcurrencyTest {

    @Test
    void twoSweepersStartedTogetherNeverReplayAnythingTwice() throws Exception {
        SweeperRig rig = new SweeperRig(LocalAws.shared());
        rig.approveFinishedWindow();
        Sweeper first = rig.sweeper(s -> s);
        Sweeper second = rig.sweeper(s -> s);
        ExecutorService two = Executors.newFixedThreadPool(2);
        int rounds = 12;
        int perRound = 8;
        try {
            for (int round = 0; round < rounds; round++) {
                rig.deadLetter(perRound, "r" + round);
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<SweepReport>> runs = new ArrayList<>();
                for (Sweeper s : List.of(first, second)) {
                    runs.add(two.submit((Callable<SweepReport>) () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return s.sweep(rig.route, "sweeper-" + s.hashCode(), Duration.ofMinutes(2), () -> true);
                    }));
                }
                for (Future<SweepReport> run : runs) {
                    run.get(2, TimeUnit.MINUTES);
                }
            }
        } finally {
            two.shutdownNow();
        }

        Map<String, Integer> sendsPerDeadLetter = new HashMap<>();
        for (Message m : drain(rig, rig.queue.url())) {
            String marker = m.messageAttributes().get(ReplayMarker.ATTRIBUTE).stringValue();
            sendsPerDeadLetter.merge(ReplayMarker.decode(marker).orElseThrow().quarantineId(), 1, Integer::sum);
        }
        assertThat(sendsPerDeadLetter).hasSize(rounds * perRound);
        assertThat(sendsPerDeadLetter.values()).allMatch(n -> n == 1);
        assertThat(drain(rig, rig.queue.dlqUrl())).isEmpty();
    }

    @Test
    void aSweeperKilledBetweenRecordWrittenAndMessageDeletedLosesAndDuplicatesNothing() {
        SweeperRig rig = new SweeperRig(LocalAws.shared());
        rig.approveFinishedWindow();
        rig.deadLetter(25, "crash");
        Sweeper dying = rig.sweeper(
                real -> new DeadLetterSource() {
                    @Override
                    public List<ArrivedDeadLetter> receive(String queue) {
                        return real.receive(queue);
                    }

                    @Override
                    public void delete(String queue, List<ArrivedDeadLetter> letters) {
                        throw new IllegalStateException("killed after the records were written, before the delete");
                    }

                    @Override
                    public QueueDepth approximateDepth(String queue) {
                        return real.approximateDepth(queue);
                    }
                },
                2);

        assertThatThrownBy(() -> dying.sweep(rig.route, "doomed", Duration.ofMinutes(1), () -> true))
                .hasMessageContaining("killed");
        // The undeleted dead letters reappear once their 2 s of invisibility are over; the next runs find them.
        Sweeper next = rig.sweeper(s -> s, 2);
        int seenAgain = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline
                && (rig
                                .aws
                                .sqs()
                                .getQueueAttributes(b -> b.queueUrl(rig.queue.dlqUrl())
                                        .attributeNamesWithStrings(
                                                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"))
                                .attributesAsStrings()
                                .values()
                                .stream()
                                .mapToInt(Integer::parseInt)
                                .sum()
                        > 0)) {
            seenAgain += next.sweep(rig.route, "next", Duration.ofMinutes(1), () -> true)
                    .alreadyQuarantinedCount();
        }

        assertThat(seenAgain)
                .as("the dead letters the killed sweeper had recorded are recognised")
                .isEqualTo(10);
        var ledger = new dev.redrive.aws.ledger.DynamoDbQuarantineLedger(
                        rig.aws.dynamoDb(), rig.quarantine, rig.control, java.time.Clock.systemUTC())
                .ofQueue(rig.route.sourceQueue(), 1_000);
        assertThat(ledger).as("every dead letter recorded exactly once").hasSize(25);
        Map<String, Integer> sends = new HashMap<>();
        for (Message m : drain(rig, rig.queue.url())) {
            sends.merge(
                    ReplayMarker.decode(m.messageAttributes()
                                    .get(ReplayMarker.ATTRIBUTE)
                                    .stringValue())
                            .orElseThrow()
                            .quarantineId(),
                    1,
                    Integer::sum);
        }
        assertThat(sends).as("every dead letter replayed exactly once").hasSize(25);
        assertThat(sends.values()).allMatch(n -> n == 1);
    }

    /**
     * Every message {@code url} holds. Short polls: local SQS (ElasticMQ) answers one with every visible message, so the
     * empty receive that ends the drain answers at once instead of long-polling a second.
     */
    private static List<Message> drain(SweeperRig rig, String url) {
        List<Message> all = new ArrayList<>();
        List<Message> batch;
        do {
            batch = rig.aws
                    .sqs()
                    .receiveMessage(b -> b.queueUrl(url)
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(0)
                            .visibilityTimeout(60)
                            .messageAttributeNames("All"))
                    .messages();
            all.addAll(batch);
        } while (!batch.isEmpty());
        return all;
    }
}
