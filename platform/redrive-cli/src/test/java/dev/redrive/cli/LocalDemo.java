package dev.redrive.cli;

import dev.redrive.core.failure.Classification;
import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.sweeper.QuarantineIds;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalAwsException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

/**
 * The operator walkthrough's world (platform/redrive-cli/README.md): local AWS with the sweeper's tables, the checkout's
 * order-placed-email queue and its DLQ, and a quarantine the sweeper could have left after a bad afternoon — mail
 * provider timeouts, old and unknown schema versions, bad recipients, a crash, one already applied. Prints the
 * environment for {@code bin/redrive} and keeps running until Ctrl-C. Run it with {@code bin/redrive-local-demo}.
 */
public final class LocalDemo {

    private static final Classification MAIL_TIMEOUT = new Classification(
            FailureClass.TRANSIENT, "Timeout", "the mail provider did not answer within 10s", "email-provider");

    private LocalDemo() {}

    public static void main(String[] args) throws InterruptedException {
        LocalAws aws;
        try {
            aws = LocalAws.shared();
        } catch (LocalAwsException e) {
            System.err.println("redrive: local AWS could not start: " + e.getMessage());
            System.exit(2);
            return;
        }
        CliRig rig = new CliRig(aws, Clock.systemUTC());
        int n = seed(rig);
        System.out.println("# Local AWS is up (" + aws.describe() + ") with " + n + " dead letters in quarantine.");
        System.out.println("# In another shell, paste these lines, then run bin/redrive. Ctrl-C here stops it all.");
        Map<String, String> env = new TreeMap<>(rig.env);
        env.forEach((k, v) -> System.out.println("export " + k + "='" + v + "'"));
        new CountDownLatch(1).await();
    }

    /**
     * Seeds the rig with the walkthrough's quarantine (every dead letter arrived before the rig's clock reads now) and
     * two unreadable messages in the DLQ; returns how many dead letters it seeded.
     */
    static int seed(CliRig rig) {
        int n = 0;
        for (int i = 1; i <= 6; i++) {
            dead(
                    rig,
                    ++n,
                    Orders.v2("evt-" + (1000 + n), 1500 + 100L * i),
                    MAIL_TIMEOUT,
                    Duration.ofMinutes(30L * i + 7));
        }
        for (int i = 1; i <= 2; i++) {
            dead(
                    rig,
                    ++n,
                    Orders.v1("evt-" + (1000 + n)),
                    Classification.of(
                            FailureClass.SCHEMA,
                            "OutdatedVersion",
                            "OrderPlaced v1 is an older version; this consumer reads v2"),
                    Duration.ofHours(20 + i));
        }
        dead(
                rig,
                ++n,
                Orders.v0("evt-" + (1000 + n)),
                Classification.of(
                        FailureClass.SCHEMA,
                        "UnknownVersion",
                        "OrderPlaced v0 is not a known version; this consumer reads v2"),
                Duration.ofHours(26));
        for (int i = 1; i <= 2; i++) {
            dead(
                    rig,
                    ++n,
                    Orders.v2("evt-" + (1000 + n), 900).replace("ada@example.com", "nobody"),
                    Classification.of(
                            FailureClass.PERMANENT,
                            "InvalidRecipient",
                            "the order has no deliverable " + "customer email address"),
                    Duration.ofHours(5 + i));
        }
        dead(
                rig,
                ++n,
                Orders.v2("evt-" + (1000 + n), 4200),
                Classification.of(
                        FailureClass.POISON,
                        "NoFailureRecorded",
                        "moved to the DLQ by the redrive policy after 3 receives, and no attempt "
                                + "recorded a claim or a failure: the consumer crashed or timed out before it could"),
                Duration.ofHours(3));
        String applied = Orders.v2("evt-" + (1000 + ++n), 2500);
        dead(rig, n, applied, MAIL_TIMEOUT, Duration.ofMinutes(50));
        rig.applied(applied);
        for (int i = 0; i < 2; i++) {
            rig.aws.sqs().sendMessage(b -> b.queueUrl(rig.queue.dlqUrl()).messageBody("{}"));
        }

        return n;
    }

    private static void dead(CliRig rig, int n, String body, Classification c, Duration ago) {
        rig.deadLetter(QuarantineIds.of(CliRig.QUEUE + "-dlq", "demo-message-" + n), body, c, ago);
    }
}
