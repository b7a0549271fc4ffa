package dev.redrive.localrun;

import dev.redrive.infra.RedriveApp;
import dev.redrive.localrun.chaos.ChaosOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/**
 * The stack the chaos tests run: the CDK app synthesized once per test JVM with the chaos run's settings (what
 * {@code bin/redrive-local --scenario chaos} synthesizes): a 10 s consumer timeout (so a 60 s visibility timeout), 4
 * receives before the DLQ, 1..4 s backoff, the sweeper every minute.
 */
final class ChaosStack {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static Path template;

    private ChaosStack() {}

    static synchronized Path template() throws Exception {
        if (template != null) {
            return template;
        }
        Path out = ROOT.resolve("localrun/target/chaos-stack");
        Map<String, Object> context = new HashMap<>();
        context.put("runtime", "jvm");
        context.put("architecture", "x86_64");
        context.put("consumerTimeout", "PT10S");
        context.put("maxReceiveCount", "4");
        context.put("allowShortRetries", "true");
        context.put("backoffBase", "PT1S");
        context.put("backoffMaxDelay", "PT4S");
        context.put("sweepRate", "rate(1 minute)");
        context.put("sweeperRetention", "PT1H");
        context.put("placeholderDirectory", out.resolve("placeholder").toString());
        Path zip = ROOT.resolve("functions/target/function.zip");
        if (Files.isRegularFile(zip)) {
            context.put("functionsAsset", zip.toString());
        }
        App app = new App(AppProps.builder()
                .outdir(out.resolve("cdk.out").toString())
                .context(context)
                .build());
        RedriveApp.create(app);
        app.synth();
        template = out.resolve("cdk.out/Redrive.template.json");
        return template;
    }

    /** Options of a chaos run of {@code orders} on the chaos stack, its logs in {@code work}. */
    static RunOptions options(int orders, ChaosOptions chaos, Path work) throws Exception {
        return new RunOptions(
                        "chaos",
                        orders,
                        1,
                        0,
                        0,
                        chaos.maxCopies(),
                        Optional.of(work.resolve("chaos.json")),
                        template(),
                        ROOT.resolve("functions/target"),
                        2,
                        6,
                        work)
                .withChaos(chaos);
    }

    static Progress quiet() {
        return new Progress(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }
}
