package dev.redrive.localrun.bench;

import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.eventsource.SqsEventSourcePoller;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.FunctionPool;
import dev.redrive.localstack.provision.LocalEventSourceMapping;
import dev.redrive.localstack.provision.LocalFunction;
import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.LocalAws;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/benchmark scaling}: the email consumer's throughput through the local run's real path (the packaged
 * function's sandboxes, each polling its own local Runtime API, fed by the SQS event-source poller with the template's
 * batch size and window, local AWS behind the sandboxes' counting proxies) at 1, 2, 4 and 8 sandboxes and at queue
 * depths of 1k and 10k (50k with {@code --depths}), beside the emulators alone.
 *
 * <p>For each depth, ascending, the source queue is filled with new orders to that depth and then held there (topped
 * up four times a second as the consumer drains it). For each number of sandboxes, they are started first (cold starts
 * are not measured here), the poller runs a warm-up, and then a fixed window is measured: messages handled and deleted
 * per second, the sandboxes' DynamoDB calls per message (their proxies count them) and the mean time DynamoDB took to
 * answer, and where the CPU went (the machine, moto, this JVM with ElasticMQ, the sandboxes). Nothing is drained: at
 * 50k the window takes a few thousand messages from a queue held at 50k.
 */
public final class ScalingBenchmark {

    static final String USAGE = """
            usage: bin/benchmark scaling [--sandboxes 1,2,4,8] [--depths 1000,10000] [--window 30] [--warmup 10]
                                         [--emulator-threads 1,2,4,8] [--emulator-seconds 10] [--chart FILE.html]
              --sandboxes   the email consumer's sandboxes at each point (the mapping's concurrency with them)
              --depths      queue depths, ascending (50000 is the large one: filling it takes a minute or two)
              --window      seconds measured at each point, after --warmup seconds of the same load
              --emulator-*  the emulators alone: threads, and seconds at each
              --chart       where the chart goes (default tooling/localrun/target/benchmark/scaling.html)
            """;

    private ScalingBenchmark() {}

    public static void main(String[] args) throws Exception {
        Arguments a = Arguments.parse(args);
        if (a == null) {
            System.out.print(USAGE);
            return;
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Path runDir = BenchmarkRun.folder("scaling-");
        RunOptions options = BenchmarkRun.options(
                Path.of("tooling/localrun/target/cdk.out/Redrive.template.json"),
                Path.of("examples/checkout/functions/target"),
                runDir,
                true);
        out.println("load average at start: " + BenchmarkRun.loadAverage());
        LocalAws aws = LocalAws.start(EndpointOverrides.fromEnvironment());
        try (LocalSystem system = LocalSystem.provisioned(options, new Progress(System.err), aws, true)) {
            ScalingReport report = new ScalingReport(a.sandboxes, a.depths);
            Consumer consumer = Consumer.of(system, LocalSystem.EMAIL);
            CpuMeter cpu = new CpuMeter(aws.motoPid());
            try (QueueDepth depth = new QueueDepth(aws.sqs(), consumer.queueUrl)) {
                for (int d : a.depths) {
                    long t0 = System.nanoTime();
                    depth.holdAt(d);
                    System.err.printf("queue filled to %,d in %.1f s%n", d, (System.nanoTime() - t0) / 1e9);
                    for (int s : a.sandboxes) {
                        ScalingPoint p = measure(system, consumer, cpu, s, d, a, runDir);
                        report.add(p);
                        System.err.println(ScalingReport.row(p));
                    }
                }
            }
            emulatorsAlone(system, consumer, a, report);
            out.println();
            out.println("load average at end: " + BenchmarkRun.loadAverage());
            report.print(out);
            report.writeChart(a.chart);
            out.println("chart: " + a.chart.toAbsolutePath().normalize());
        }
    }

    /** The consumer under measurement: its source queue and its mapping's settings. */
    private record Consumer(
            String handler, String queueUrl, String queueArn, LocalEventSourceMapping mapping, Duration timeout) {
        static Consumer of(LocalSystem system, String handler) {
            LocalFunction f = system.resources().functionWithHandler(handler).orElseThrow();
            LocalEventSourceMapping m =
                    system.resources().mappingsOf(f.logicalId()).get(0);
            LocalQueue q = system.resources().queues().get(m.queueLogicalId());
            return new Consumer(handler, q.url(), q.arn(), m, f.timeout());
        }
    }

    private static ScalingPoint measure(
            LocalSystem system, Consumer c, CpuMeter cpu, int sandboxes, int depth, Arguments a, Path dir)
            throws Exception {
        FunctionPool pool = new FunctionPool(
                c.handler,
                (slot, exits) -> new FunctionInstance(
                        system.sandboxSpec(c.handler),
                        slot,
                        system.javaRuntime(),
                        dir.resolve(c.handler + "-" + depth + "-" + sandboxes + "-" + slot + ".log"),
                        exits),
                c.timeout,
                Duration.ofSeconds(120),
                sandboxes);
        try (pool) {
            startEvery(pool, sandboxes);
            SqsEventSourcePoller poller = new SqsEventSourcePoller(
                    system.aws().sqs(),
                    pool,
                    new SqsEventSourcePoller.Settings(
                            c.queueUrl,
                            c.queueArn,
                            c.mapping.batchSize(),
                            c.mapping.maximumBatchingWindow(),
                            sandboxes,
                            c.mapping.reportsBatchItemFailures()),
                    system.aws().region().id());
            try (poller) {
                poller.start();
                Thread.sleep(a.warmup.toMillis()); // the warm-up is a length of time, not a condition
                Window before = Window.read(system, c.handler, poller, pool, cpu);
                Thread.sleep(a.window.toMillis());
                Window after = Window.read(system, c.handler, poller, pool, cpu);
                return after.since(before, depth, sandboxes);
            }
        }
    }

    /**
     * Starts all of the pool's sandboxes (an empty batch each, handed over at the same moment so that none finds
     * another's sandbox idle), so the window sees no cold start.
     */
    private static void startEvery(FunctionPool pool, int sandboxes) throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(sandboxes);
        try {
            while (pool.instances() < sandboxes) {
                CountDownLatch together = new CountDownLatch(1);
                List<Future<?>> starts = new ArrayList<>();
                for (int i = pool.instances(); i < sandboxes; i++) {
                    starts.add(starters.submit(() -> {
                        together.await();
                        return pool.invoke("{\"Records\":[]}");
                    }));
                }
                together.countDown();
                for (Future<?> f : starts) {
                    f.get(10, TimeUnit.MINUTES);
                }
            }
        } finally {
            starters.shutdownNow();
        }
    }

    /** What the counters said at one moment. */
    private record Window(
            long nanos,
            long deleted,
            long timeouts,
            Map<String, Long> calls,
            Map<String, Double> latency,
            CpuMeter.Reading cpu) {

        static Window read(
                LocalSystem system, String handler, SqsEventSourcePoller poller, FunctionPool pool, CpuMeter cpu) {
            List<Long> pids =
                    pool.sandboxes().stream().map(FunctionInstance::pid).toList();
            return new Window(
                    System.nanoTime(),
                    poller.deleted(),
                    pool.timeouts(),
                    system.apiCalls().getOrDefault(handler, Map.of()),
                    system.awsLatencyMillis(),
                    cpu.read(pids));
        }

        ScalingPoint since(Window w, int depth, int sandboxes) {
            long ddb = delta(w, "dynamodb:");
            long other = delta(w, "s3:") + delta(w, "sqs:");
            return new ScalingPoint(
                    depth,
                    sandboxes,
                    (nanos - w.nanos) / 1e9,
                    deleted - w.deleted,
                    ddb,
                    meanLatency(w, "dynamodb:"),
                    other,
                    timeouts - w.timeouts,
                    cpu.since(w.cpu),
                    BenchmarkRun.loadAverage().split(" ")[0]);
        }

        private long delta(Window w, String service) {
            return sum(calls, service) - sum(w.calls, service);
        }

        private static long sum(Map<String, Long> calls, String service) {
            return calls.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(service))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }

        /** The mean answer time of {@code service}'s calls made in the window, from the running means and counts. */
        private double meanLatency(Window w, String service) {
            double millis = 0;
            long count = 0;
            for (String op : latency.keySet()) {
                if (op.startsWith(service)) {
                    long n1 = count(calls, op);
                    long n0 = count(w.calls, op);
                    millis += latency.get(op) * n1 - w.latency.getOrDefault(op, 0.0) * n0;
                    count += n1 - n0;
                }
            }
            return count == 0 ? Double.NaN : millis / count;
        }

        /** Calls of {@code op}, accepted and refused ({@code op!}). */
        private static long count(Map<String, Long> calls, String op) {
            return calls.getOrDefault(op, 0L) + calls.getOrDefault(op + "!", 0L);
        }
    }

    private static void emulatorsAlone(LocalSystem system, Consumer c, Arguments a, ScalingReport report)
            throws Exception {
        Map<String, String> env = system.environmentOf(c.handler);
        EmulatorAlone alone = new EmulatorAlone(
                system.aws(), env.get("REDRIVE_CLAIMS_TABLE"), env.get("REDRIVE_CHECKOUT_EMAIL_OUTBOX_BUCKET"));
        for (int t : a.emulatorThreads) {
            EmulatorAlone.Rate r = alone.moto(t, a.emulatorSeconds);
            report.motoAlone(r);
            System.err.printf(
                    "moto alone, %d threads: %.1f messages/s, %.1f calls/s%n",
                    t, r.messagesPerSecond(), r.callsPerSecond());
        }
        String scratch = system.aws()
                .sqs()
                .createQueue(b -> b.queueName("scaling-elasticmq-alone"))
                .queueUrl();
        try (QueueDepth depth = new QueueDepth(system.aws().sqs(), scratch)) {
            depth.holdAt(2_000);
            for (int t : a.emulatorThreads) {
                EmulatorAlone.Rate r = alone.elasticMq(t, a.emulatorSeconds, scratch);
                report.elasticMqAlone(r);
                System.err.printf(
                        "ElasticMQ alone, %d threads: %.1f messages/s, %.1f calls/s%n",
                        t, r.messagesPerSecond(), r.callsPerSecond());
            }
        }
    }

    /** The command line; null for {@code --help}. */
    private record Arguments(
            List<Integer> sandboxes,
            List<Integer> depths,
            Duration window,
            Duration warmup,
            List<Integer> emulatorThreads,
            Duration emulatorSeconds,
            Path chart) {

        static Arguments parse(String[] args) {
            List<Integer> sandboxes = List.of(1, 2, 4, 8);
            List<Integer> depths = List.of(1_000, 10_000);
            Duration window = Duration.ofSeconds(30);
            Duration warmup = Duration.ofSeconds(10);
            List<Integer> emulatorThreads = List.of(1, 2, 4, 8);
            Duration emulatorSeconds = Duration.ofSeconds(10);
            Path chart = Path.of("tooling/localrun/target/benchmark/scaling.html");
            List<String> rest = Arrays.asList(args);
            for (int i = 0; i < rest.size(); i++) {
                switch (rest.get(i)) {
                    case "--sandboxes" -> sandboxes = ints(rest.get(++i));
                    case "--depths" ->
                        depths = ints(rest.get(++i)).stream().sorted().toList();
                    case "--window" -> window = Duration.ofSeconds(Long.parseLong(rest.get(++i)));
                    case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(rest.get(++i)));
                    case "--emulator-threads" -> emulatorThreads = ints(rest.get(++i));
                    case "--emulator-seconds" -> emulatorSeconds = Duration.ofSeconds(Long.parseLong(rest.get(++i)));
                    case "--chart" -> chart = Path.of(rest.get(++i));
                    case "--help", "-h" -> {
                        return null;
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + rest.get(i) + "\n" + USAGE);
                }
            }
            return new Arguments(sandboxes, depths, window, warmup, emulatorThreads, emulatorSeconds, chart);
        }

        private static List<Integer> ints(String csv) {
            return Arrays.stream(csv.split(","))
                    .map(String::trim)
                    .map(Integer::parseInt)
                    .toList();
        }
    }
}
