package dev.redrive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.aws.queues.QueueAddress;
import dev.redrive.core.backoff.FullJitterBackoff;
import dev.redrive.core.backoff.Mulberry32;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/** {@code redrive backoff}: the retry schedule a set of settings gives, and what is wrong with it. */
@Command(
        name = "backoff",
        header = "Explain the retry schedule of a set of backoff and queue settings.",
        mixinStandardHelpOptions = true,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Explain the retry schedule of TRANSIENT failures: capped exponential backoff with full jitter, "
                    + "capped = min(max-delay, base * multiplier^(attempt-1)), delay = round(capped * rng()), "
                    + "rng uniform in [0,1).",
            "Per attempt (the n-th receive failing): the capped delay, the expected delay (half of it), and the "
                    + "cumulative worst case (each attempt takes the whole function timeout plus the capped delay, "
                    + "or the whole visibility timeout when the consumer crashes). With --seed, a reproducible "
                    + "sample drawn with the mulberry32 generator.",
            "Warns when maxReceiveCount attempts can outlast the queue's retention (messages would expire before "
                    + "reaching the DLQ), when the visibility timeout is under 6x the function timeout, and when the "
                    + "DLQ keeps messages no longer than its source.",
            "Backoff settings default to REDRIVE_BACKOFF_BASE, _MULTIPLIER and _MAX_DELAY (as the consumers read "
                    + "them), else 2s, 2.0, 15m. --queue reads maxReceiveCount, retention and visibility from the "
                    + "queue; flags given explicitly win."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  redrive backoff",
            "  redrive backoff --base 1s --multiplier 3 --max-delay 10m --max-receive-count 8 --retention 4d",
            "  redrive backoff --queue orders-receipts --function-timeout 30s --seed 42"
        })
final class BackoffCommand implements Callable<Integer> {

    @ParentCommand
    RedriveCli root;

    @Spec
    CommandSpec spec;

    @Option(names = "--base", paramLabel = "DURATION", order = 1, description = "The cap of the first retry.")
    Duration base;

    @Option(names = "--multiplier", paramLabel = "X", order = 2, description = "Growth of the cap per attempt (>= 1).")
    Double multiplier;

    @Option(names = "--max-delay", paramLabel = "DURATION", order = 3, description = "The largest delay (<= 12h).")
    Duration maxDelay;

    @Option(
            names = "--max-receive-count",
            paramLabel = "N",
            order = 4,
            description = "Receives before SQS moves a message to the DLQ (the redrive policy). Default 5.")
    Integer maxReceiveCount;

    @Option(
            names = "--retention",
            paramLabel = "DURATION",
            order = 5,
            description = "The source queue's message retention. Default 4d (the SQS default).")
    Duration retention;

    @Option(
            names = "--visibility-timeout",
            paramLabel = "DURATION",
            order = 6,
            description = "The source queue's visibility timeout. Default 30s (the SQS default).")
    Duration visibilityTimeout;

    @Option(
            names = "--function-timeout",
            paramLabel = "DURATION",
            order = 7,
            description = "The consumer function's timeout; checks the visibility timeout against it.")
    Duration functionTimeout;

    @Option(
            names = "--queue",
            paramLabel = "NAME",
            order = 8,
            description = "Read maxReceiveCount, retention and visibility timeout from this queue (and the DLQ's "
                    + "retention from its redrive policy target).")
    String queue;

    @Option(
            names = "--seed",
            paramLabel = "N",
            order = 9,
            description = "Draw a reproducible sample of delays with mulberry32 seeded with N.")
    Integer seed;

    @Option(names = "--json", order = 10, description = "Machine output: one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        Settings settings = root.settings();
        QueueSettings fromQueue = queue == null ? QueueSettings.NONE : fromQueue();
        FullJitterBackoff backoff = backoff(settings);
        int receives = maxReceiveCount != null
                ? maxReceiveCount
                : fromQueue.maxReceiveCount().orElse(5);
        if (receives < 1 || receives > 1000) {
            throw CliException.usage("--max-receive-count must be between 1 and 1000 (SQS's limits)");
        }
        BackoffSchedule schedule = new BackoffSchedule(
                backoff,
                receives,
                retention != null ? retention : fromQueue.retention().orElse(Duration.ofDays(4)),
                visibilityTimeout != null
                        ? visibilityTimeout
                        : fromQueue.visibility().orElse(Duration.ofSeconds(30)),
                functionTimeout,
                fromQueue.deadLetterRetention().orElse(null),
                seed == null ? null : new Mulberry32(seed));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Json.print(out, json(schedule));
        } else {
            schedule.print(out, source(fromQueue), seed);
        }
        return ExitCodes.OK;
    }

    /** The settings of --queue (a route's DLQ stands for its source queue); one SQS does not have is a usage error. */
    private QueueSettings fromQueue() {
        Backend backend = root.backend();
        String name = Known.sourceQueue(
                backend, QueueAddress.nameOf(queue), spec.commandLine().getErr(), "redrive backoff");
        try {
            return QueueSettings.read(backend, name);
        } catch (QueueDoesNotExistException e) {
            throw Known.noSuchQueue(backend, name);
        }
    }

    /** Where the queue settings came from, in words, for the schedule's heading. */
    private String source(QueueSettings fromQueue) {
        if (queue == null) {
            return "";
        }
        List<String> missing = new ArrayList<>();
        if (maxReceiveCount == null && fromQueue.maxReceiveCount().isEmpty()) {
            missing.add("no redrive policy: maxReceiveCount 5 is assumed");
        }
        if (retention == null && fromQueue.retention().isEmpty()) {
            missing.add("it reports no retention: the SQS default 4d is assumed");
        }
        return " (queue " + QueueAddress.nameOf(queue) + (missing.isEmpty() ? "" : "; " + String.join("; ", missing))
                + ")";
    }

    private FullJitterBackoff backoff(Settings settings) {
        try {
            Duration b = base != null
                    ? base
                    : settings.backoff(Settings.BACKOFF_BASE)
                            .map(Durations::parse)
                            .orElse(Duration.ofSeconds(2));
            double m = multiplier != null
                    ? multiplier
                    : settings.backoff(Settings.BACKOFF_MULTIPLIER)
                            .map(Double::parseDouble)
                            .orElse(2.0);
            Duration max = maxDelay != null
                    ? maxDelay
                    : settings.backoff(Settings.BACKOFF_MAX_DELAY)
                            .map(Durations::parse)
                            .orElse(Duration.ofMinutes(15));
            return new FullJitterBackoff(b, m, max);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("backoff settings: " + e.getMessage());
        }
    }

    private static ObjectNode json(BackoffSchedule s) {
        ObjectNode n = Json.object();
        n.put("baseSeconds", s.backoff().base().toMillis() / 1000.0);
        n.put("multiplier", s.backoff().multiplier());
        n.put("maxDelaySeconds", s.backoff().maxDelay().toMillis() / 1000.0);
        n.put("maxReceiveCount", s.receives());
        n.put("retentionSeconds", s.retention().toSeconds());
        n.put("visibilityTimeoutSeconds", s.visibility().toSeconds());
        ArrayNode attempts = n.putArray("attempts");
        for (BackoffSchedule.Attempt a : s.attempts()) {
            ObjectNode o = attempts.addObject();
            o.put("attempt", a.attempt());
            o.put("cappedSeconds", a.cappedSeconds());
            o.put("expectedSeconds", a.expectedSeconds());
            o.put("worstCaseCumulativeSeconds", a.worstCumulativeSeconds());
            if (a.sampleSeconds() != null) {
                o.put("sampleSeconds", a.sampleSeconds());
                o.put("sampleCumulativeSeconds", a.sampleCumulativeSeconds());
            }
        }
        ArrayNode warnings = n.putArray("warnings");
        s.warnings().forEach(warnings::add);
        return n;
    }

    /** Settings read from a queue's attributes. */
    record QueueSettings(
            Optional<Integer> maxReceiveCount,
            Optional<Duration> retention,
            Optional<Duration> visibility,
            Optional<Duration> deadLetterRetention) {

        static final QueueSettings NONE =
                new QueueSettings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

        static QueueSettings read(Backend backend, String name) {
            var sqs = backend.aws().sqs();
            var names = List.of(QueueAttributeName.ALL);
            var a = sqs.getQueueAttributes(
                            b -> b.queueUrl(backend.directory().url(name)).attributeNames(names))
                    .attributesAsStrings();
            Optional<Integer> receives = Optional.empty();
            Optional<Duration> dlqRetention = Optional.empty();
            String policy = a.get("RedrivePolicy");
            if (policy != null && !policy.isBlank()) {
                try {
                    var p = Json.MAPPER.readTree(policy);
                    receives = Optional.of(p.path("maxReceiveCount").asInt(0)).filter(n -> n > 0);
                    String target = p.path("deadLetterTargetArn").asText("");
                    if (!target.isBlank()) {
                        var d = sqs.getQueueAttributes(
                                        b -> b.queueUrl(backend.directory().url(target))
                                                .attributeNames(names))
                                .attributesAsStrings();
                        dlqRetention = seconds(d.get("MessageRetentionPeriod"));
                    }
                } catch (JsonProcessingException e) {
                    throw CliException.config("the redrive policy of queue " + name + " is not JSON");
                }
            }
            return new QueueSettings(
                    receives,
                    seconds(a.get("MessageRetentionPeriod")),
                    seconds(a.get("VisibilityTimeout")),
                    dlqRetention);
        }

        private static Optional<Duration> seconds(String value) {
            return value == null || value.isBlank()
                    ? Optional.empty()
                    : Optional.of(Duration.ofSeconds(Long.parseLong(value)));
        }
    }
}
