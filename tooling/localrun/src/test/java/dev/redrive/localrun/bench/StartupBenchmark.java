package dev.redrive.localrun.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.LocalSystem;
import dev.redrive.localrun.Progress;
import dev.redrive.localrun.RunOptions;
import dev.redrive.localrun.lambda.ClassDataArchive;
import dev.redrive.localrun.lambda.FunctionArtifact;
import dev.redrive.localrun.lambda.SandboxSpec;
import dev.redrive.testing.localaws.EndpointOverrides;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bin/benchmark startup [starts]}: the time from a sandbox's process start to its first handled event, for every
 * function of the template and every way of starting the JVM artifact ({@link StartOption}), in interleaved rounds of
 * one run on the same local AWS: each round starts each function once under each option, the options' order rotating
 * from round to round. Prints p50 and p90 per function and option, the init and the first event apart, the CPU time of
 * a start, and each option's ratio to the baseline (the JDK's default class-data archive, as Lambda's {@code java21}).
 *
 * <p>Arguments: {@code [starts] [--functions a,b] [--options x,y] [--template FILE] [--functions-dir DIR]
 * [--native FILE]}: {@code --native} adds the option {@code native}, a native build of the functions given as its
 * executable or as the {@code function.zip} that holds it as {@code bootstrap} (no GraalVM is needed to run it).
 */
public final class StartupBenchmark {

    /** The functions in the order each round starts them: the checkout places the orders the relay's starts publish. */
    static final List<String> ORDER = List.of(
            LocalSystem.CHECKOUT,
            LocalSystem.RELAY,
            LocalSystem.EMAIL,
            LocalSystem.REVENUE,
            LocalSystem.SWEEPER,
            LocalSystem.OUTBOX_SWEEPER,
            LocalSystem.RECONCILIATION);

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    /** Where {@code bin/benchmark startup} builds the artifact with Quarkus' start-up work left to the first event. */
    static final String LAZY_VARIANT = "startup-variants/quarkus-lazy";

    private StartupBenchmark() {}

    public static void main(String[] args) throws Exception {
        Arguments a = Arguments.parse(args);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Path runDir = BenchmarkRun.folder("startup-");
        RunOptions options = BenchmarkRun.options(a.template, a.functionsDir, runDir, false);
        out.println("load average at start: " + BenchmarkRun.loadAverage());
        try (LocalSystem system = LocalSystem.provisioned(
                options, new Progress(System.err), LocalAws.start(EndpointOverrides.fromEnvironment()), true)) {
            List<String> functions = ORDER.stream()
                    .filter(h -> system.resources().functionWithHandler(h).isPresent())
                    .filter(h -> a.functions.isEmpty() || a.functions.contains(h))
                    .toList();
            Map<String, SandboxSpec> specs = new LinkedHashMap<>();
            functions.forEach(h -> specs.put(h, system.sandboxSpec(h)));
            Optional<Path> archive = trainArchive(system, runDir, out);
            Optional<FunctionArtifact> nativeBinary = a.nativeBinary.map(p -> NativeBinary.executable(p, runDir));
            List<StartOption> chosen = StartOption.all(archive, lazyArtifact(a.functionsDir), nativeBinary).stream()
                    .filter(o -> a.options.isEmpty() || a.options.contains(o.name()))
                    .toList();
            out.println("options:");
            chosen.forEach(o -> out.printf("  %-15s %s%n", o.name(), o.about()));
            StartupTable table = run(system, specs, chosen, a.starts, runDir);
            out.println();
            out.println("load average at end: " + BenchmarkRun.loadAverage());
            table.print(out);
        }
    }

    private static StartupTable run(
            LocalSystem system, Map<String, SandboxSpec> specs, List<StartOption> options, int starts, Path dir)
            throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, FirstEvent> events = new LinkedHashMap<>();
        for (String h : specs.keySet()) {
            events.put(h, FirstEvent.of(h, system, json));
        }
        StartupTable table = new StartupTable(List.copyOf(specs.keySet()), options);
        try {
            for (int round = 0; round < starts; round++) {
                for (Map.Entry<String, SandboxSpec> f : specs.entrySet()) {
                    for (int i = 0; i < options.size(); i++) {
                        StartOption option = options.get((i + round) % options.size());
                        FirstEvent.Delivery event = events.get(f.getKey()).next();
                        ColdStart start = ColdStart.measure(
                                option.apply(f.getValue()),
                                option.runtime().apply(system.javaRuntime()),
                                dir,
                                event,
                                START_TIMEOUT);
                        table.add(f.getKey(), option.name(), start);
                        System.err.printf(
                                "round %d/%d %-24s %-15s %s%n",
                                round + 1, starts, f.getKey(), option.name(), StartupTable.describe(start));
                    }
                }
            }
        } finally {
            for (FirstEvent e : events.values()) {
                if (e instanceof AutoCloseable c) {
                    c.close();
                }
            }
        }
        return table;
    }

    /** The artifact's AppCDS archive, trained as the local run trains it (the email handler, up to its first poll). */
    private static Optional<Path> trainArchive(LocalSystem system, Path dir, PrintStream out)
            throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Optional<Path> archive = ClassDataArchive.train(
                system.sandboxSpec(LocalSystem.EMAIL), system.javaRuntime(), dir, Duration.ofSeconds(120));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        out.println(archive.map(p -> "AppCDS archive of the artifact trained in " + ms + " ms (" + size(p) + " MB)")
                .orElse("no AppCDS archive (the training start failed): the appcds option is left out"));
        return archive;
    }

    /**
     * The artifact built with {@code quarkus.snapstart.enabled=false} into {@code startup-variants/quarkus-lazy} of
     * the functions' target ({@code bin/benchmark startup} builds it), if it is there.
     */
    private static Optional<FunctionArtifact> lazyArtifact(Path functionsDir) {
        Path variant = functionsDir.resolve(LAZY_VARIANT);
        return Files.isDirectory(variant) ? Optional.of(FunctionArtifact.find(variant)) : Optional.empty();
    }

    private static long size(Path p) {
        try {
            return Files.size(p) / (1024 * 1024);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The command line. */
    private record Arguments(
            int starts,
            List<String> functions,
            List<String> options,
            Path template,
            Path functionsDir,
            Optional<Path> nativeBinary) {
        static Arguments parse(String[] args) {
            int starts = 10;
            List<String> functions = List.of();
            List<String> options = List.of();
            Path template = Path.of("tooling/localrun/target/cdk.out/Redrive.template.json");
            Path functionsDir = Path.of("examples/checkout/functions/target");
            Optional<Path> nativeBinary = Optional.empty();
            List<String> rest = new ArrayList<>(Arrays.asList(args));
            for (int i = 0; i < rest.size(); i++) {
                String arg = rest.get(i);
                switch (arg) {
                    case "--functions" -> functions = List.of(rest.get(++i).split(","));
                    case "--options" -> options = List.of(rest.get(++i).split(","));
                    case "--template" -> template = Path.of(rest.get(++i));
                    case "--functions-dir" -> functionsDir = Path.of(rest.get(++i));
                    case "--native" -> nativeBinary = Optional.of(Path.of(rest.get(++i)));
                    default -> starts = Integer.parseInt(arg);
                }
            }
            return new Arguments(starts, functions, options, template, functionsDir, nativeBinary);
        }
    }
}
