package dev.redrive.cli;

import dev.redrive.core.quarantine.Actor;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * {@code redrive}: the operator's command line for the dead-letter workflow. The root command holds the options every
 * subcommand inherits (the actor, the table, bucket and route names) and the services of one run; the subcommands do
 * the work. Errors are one short line on stderr with an exit code from {@link ExitCodes}, never a stack trace (unless
 * {@code --verbose}).
 */
@Command(
        name = "redrive",
        mixinStandardHelpOptions = true,
        versionProvider = RedriveCli.Version.class,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = {
            "Operate Redrive's dead-letter workflow: dead letters are quarantined by the sweeper with their failure "
                    + "class, then a person (or, inside a maintenance window, the automation) replays them through "
                    + "the same schema and idempotency checks as first deliveries, or archives them with a reason.",
            "",
            "Talks to AWS with the standard settings (AWS_REGION, AWS_PROFILE, AWS_ACCESS_KEY_ID..., "
                    + "AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_<SERVICE>), so it works against local AWS unchanged. "
                    + "Table, bucket and route names come from the functions' REDRIVE_* variables."
        },
        subcommands = {
            ListCommand.class,
            ShowCommand.class,
            ReplayCommand.class,
            EditCommand.class,
            ArchiveCommand.class,
            WindowCommand.class,
            BreakerCommand.class,
            StatsCommand.class,
            BackoffCommand.class,
            ConsoleCommand.class,
            CommandLine.HelpCommand.class
        },
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  REDRIVE_SWEEPER_QUARANTINE_TABLE   quarantine ledger (redrive-quarantine)",
            "  REDRIVE_SWEEPER_CONTROL_TABLE      windows, replay statistics (redrive-control)",
            "  REDRIVE_CLAIMS_TABLE               idempotency claims (redrive-claims)",
            "  REDRIVE_SWEEPER_ARCHIVE_BUCKET     large payloads, archive (redrive-archive)",
            "  REDRIVE_ROUTES                     the routes document: s3://bucket/key, a file or the JSON",
            "  REDRIVE_BACKOFF_BASE, _MULTIPLIER, _MAX_DELAY   the consumers' backoff",
            "",
            "Examples:",
            "  redrive list --group",
            "  redrive show q-3f2a9c41d0b7e65a18c4f2d1",
            "  redrive replay --filter queue=orders-receipts,class=TRANSIENT --dry-run",
            "  redrive edit q-3f2a9c41d0b7e65a18c4f2d1 --payload fixed.json --reason 'currency was lower case'",
            "  redrive window add --dependency email-provider --start now --end now+2h \\",
            "      --reason CHG-1234",
            "  redrive breaker list",
            "  redrive stats",
            "  redrive backoff --queue orders-receipts --function-timeout 30s"
        },
        exitCodeListHeading = "%nExit codes:%n")
public final class RedriveCli implements Callable<Integer>, AutoCloseable {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--actor",
            scope = ScopeType.INHERIT,
            paramLabel = "NAME",
            order = 100,
            description = "Who is acting, written into every audit entry. Default: your AWS identity (STS "
                    + "GetCallerIdentity ARN), else the OS user.")
    String actor;

    @Option(
            names = "--quarantine-table",
            scope = ScopeType.INHERIT,
            paramLabel = "TABLE",
            order = 101,
            description = "The quarantine ledger table. Default: $REDRIVE_SWEEPER_QUARANTINE_TABLE or "
                    + "redrive-quarantine.")
    String quarantineTable;

    @Option(
            names = "--control-table",
            scope = ScopeType.INHERIT,
            paramLabel = "TABLE",
            order = 102,
            description = "The control table (windows, replay statistics). Default: $REDRIVE_SWEEPER_CONTROL_TABLE "
                    + "or redrive-control.")
    String controlTable;

    @Option(
            names = "--claims-table",
            scope = ScopeType.INHERIT,
            paramLabel = "TABLE",
            order = 103,
            description = "The idempotency claims table the replay check reads. Default: $REDRIVE_CLAIMS_TABLE or "
                    + "redrive-claims.")
    String claimsTable;

    @Option(
            names = "--archive-bucket",
            scope = ScopeType.INHERIT,
            paramLabel = "BUCKET",
            order = 104,
            description = "The bucket holding large payloads. Default: $REDRIVE_SWEEPER_ARCHIVE_BUCKET or "
                    + "redrive-archive.")
    String archiveBucket;

    @Option(
            names = "--routes",
            scope = ScopeType.INHERIT,
            paramLabel = "JSON",
            order = 105,
            description = "The routes document, as the sweeper is given it: s3://bucket/key, a file or the JSON. "
                    + "Default: $REDRIVE_ROUTES (else the old $REDRIVE_SWEEPER_ROUTES).")
    String routes;

    @Option(
            names = "--verbose",
            scope = ScopeType.INHERIT,
            order = 106,
            description = "On an error, print the whole cause (the AWS SDK's message, the stack trace) after the "
                    + "short line.")
    boolean verbose;

    private final CliContext context;
    private final BiFunction<CliContext, Settings, Backend> backends;
    private Settings settings;
    private Backend backend;
    private ActorResolver actors;

    public RedriveCli(CliContext context) {
        this(context, AwsBackend::new);
    }

    /** The CLI over another backend (tests run the commands on the in-memory fakes). */
    RedriveCli(CliContext context, BiFunction<CliContext, Settings, Backend> backends) {
        this.context = context;
        this.backends = backends;
    }

    /** The command line for {@code root}, with the CLI's converters and one-line error handling. */
    public static CommandLine commandLine(RedriveCli root) {
        CommandLine cl = new CommandLine(root);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.registerConverter(Duration.class, new Converters.DurationConverter());
        cl.registerConverter(Instant.class, new Converters.InstantConverter(root.context.clock()));
        cl.setParameterExceptionHandler(ErrorHandling::onBadArguments);
        cl.setExecutionExceptionHandler((e, line, parsed) -> ErrorHandling.onFailure(e, line, root));
        withExitCodes(cl);
        return cl;
    }

    private static void withExitCodes(CommandLine line) {
        line.getCommandSpec()
                .usageMessage()
                .exitCodeListHeading("%nExit codes:%n")
                .exitCodeList(ExitCodes.LIST);
        line.getSubcommands().values().forEach(RedriveCli::withExitCodes);
    }

    /** Runs the CLI; Ctrl-C lets a bulk run finish the message in hand and print its summary. */
    public static void main(String[] args) {
        CliContext context = CliContext.system();
        CountDownLatch finished = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            context.stop().set(true);
                            try {
                                finished.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "redrive-stop"));
        int code;
        try (RedriveCli root = new RedriveCli(context)) {
            code = commandLine(root).execute(args);
        }
        finished.countDown();
        System.exit(code);
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println("redrive: name a command (list, show, replay, archive, window, breaker, stats, backoff); "
                + "see 'redrive --help'");
        return ExitCodes.USAGE;
    }

    CliContext context() {
        return context;
    }

    synchronized Settings settings() {
        if (settings == null) {
            settings = new Settings(context, this);
        }
        return settings;
    }

    synchronized Backend backend() {
        if (backend == null) {
            backend = backends.apply(context, settings());
        }
        return backend;
    }

    /** The acting person, resolved once: {@code --actor}, else STS, else the OS user. */
    synchronized Actor actor() {
        if (actors == null) {
            actors = new ActorResolver(
                    context, () -> backend().aws(), actor, spec.commandLine().getErr());
        }
        return actors.actor();
    }

    /** Turns SDK failures into the operator's line (used by {@link ErrorHandling}). */
    String describe(SdkException e) {
        return AwsErrors.describe(e, settings());
    }

    @Override
    public synchronized void close() {
        if (backend != null) {
            backend.close();
        }
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = RedriveCli.class.getPackage().getImplementationVersion();
            return new String[] {"redrive " + (v == null ? "(development build)" : v)};
        }
    }
}
