package dev.redrive.localrun;

import dev.redrive.localrun.chaos.ChaosOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code bin/redrive-local} was asked to do.
 *
 * @param scenario       incident (default), duplicate-storm, poison or basic
 * @param orders         orders of normal traffic before the incident
 * @param deadLettered   N: orders dead-lettered by the outage
 * @param alreadyApplied M: of those, how many the producer re-sends after the outage (applied before the sweep)
 * @param legacy         K: of those, how many carry the pre-migration (v1) payload
 * @param copies         duplicate storm: the most deliveries of one order
 * @param report         where to write the JSON report, if anywhere
 * @param template       the synthesized template to provision from
 * @param functionsTarget the functions module's target directory (the packaged artifact)
 * @param maxInstances   the most sandboxes per function (Lambda's concurrency, scaled to this machine)
 * @param scheduleSpeed  how much faster than their rate the schedules fire
 * @param workDir        where logs go
 * @param seed           seeds the traffic and the faults (the chaos scenario)
 * @param chaos          the chaos scenario's faults and traffic; present only for it
 * @param classDataArchive whether the run trains a class-data archive of the function artifact for its sandboxes
 *                       (cheaper, shorter cold starts than Lambda's; see {@code ClassDataArchive})
 * @param practice       the incident only: dead letters left in quarantine after it, for a person to practise on
 *                       (several failure classes, error types, dependencies and two time spans); 0 for none
 * @param keepRunning    whether the system stays up after the scenario and its report, until Ctrl-C or SIGTERM
 */
public record RunOptions(
        String scenario,
        int orders,
        int deadLettered,
        int alreadyApplied,
        int legacy,
        int copies,
        Optional<Path> report,
        Path template,
        Path functionsTarget,
        int maxInstances,
        double scheduleSpeed,
        Path workDir,
        long seed,
        Optional<ChaosOptions> chaos,
        boolean classDataArchive,
        int practice,
        boolean keepRunning) {

    public static final List<String> SCENARIOS = List.of("incident", "duplicate-storm", "poison", "basic", "chaos");

    /** Options of a run without faults. */
    public RunOptions(
            String scenario,
            int orders,
            int deadLettered,
            int alreadyApplied,
            int legacy,
            int copies,
            Optional<Path> report,
            Path template,
            Path functionsTarget,
            int maxInstances,
            double scheduleSpeed,
            Path workDir) {
        this(
                scenario,
                orders,
                deadLettered,
                alreadyApplied,
                legacy,
                copies,
                report,
                template,
                functionsTarget,
                maxInstances,
                scheduleSpeed,
                workDir,
                20261129L,
                Optional.empty(),
                true);
    }

    /** Options with nothing left for practice and no keeping the system up after the scenario. */
    public RunOptions(
            String scenario,
            int orders,
            int deadLettered,
            int alreadyApplied,
            int legacy,
            int copies,
            Optional<Path> report,
            Path template,
            Path functionsTarget,
            int maxInstances,
            double scheduleSpeed,
            Path workDir,
            long seed,
            Optional<ChaosOptions> chaos,
            boolean classDataArchive) {
        this(
                scenario,
                orders,
                deadLettered,
                alreadyApplied,
                legacy,
                copies,
                report,
                template,
                functionsTarget,
                maxInstances,
                scheduleSpeed,
                workDir,
                seed,
                chaos,
                classDataArchive,
                0,
                false);
    }

    /** These options with {@code practice} dead letters left after the incident, and kept running or not. */
    public RunOptions forPractice(int practice, boolean keepRunning) {
        return new RunOptions(
                scenario,
                orders,
                deadLettered,
                alreadyApplied,
                legacy,
                copies,
                report,
                template,
                functionsTarget,
                maxInstances,
                scheduleSpeed,
                workDir,
                seed,
                chaos,
                classDataArchive,
                practice,
                keepRunning);
    }

    /** These options with {@code chaos} (the chaos scenario's). */
    public RunOptions withChaos(ChaosOptions chaos) {
        return new RunOptions(
                scenario,
                orders,
                deadLettered,
                alreadyApplied,
                legacy,
                copies,
                report,
                template,
                functionsTarget,
                maxInstances,
                scheduleSpeed,
                workDir,
                chaos.plan().seed(),
                Optional.of(chaos),
                classDataArchive,
                practice,
                keepRunning);
    }

    static final String USAGE = """
            usage: bin/redrive-local [--scenario incident|duplicate-storm|poison|basic|chaos] [--report FILE.json]
                                     [--orders T] [--dead N] [--applied M] [--legacy K] [--copies C]
                                     [--max-instances I] [--schedule-speed S] [--template FILE] [--functions DIR]
                                     [--practice P] [--keep-running]

              --scenario        what to run (default incident)
                                  incident: OrderPlaced traffic; an email-provider outage inside an approved
                                    maintenance window dead-letters N orders: M of them succeed on a late retry
                                    of the producer, K carry a payload from before a breaking schema change (no
                                    upcaster); the sweeper quarantines all N, replays N-M-K, marks M already
                                    applied and archives K to S3 with the reason
                                  duplicate-storm: every order delivered 1..C times, concurrently
                                  poison: one order crashes the consumer's sandbox on every delivery
                                  basic: a handful of messages, a duplicate and a malformed one, each explained
                                  chaos: T orders, each delivered 1..C times by several producers at once, under
                                    sandbox kills at every step, freezes past the lease, AWS errors, latency and
                                    resets, sweeper kills and two sweepers at once, with a mail provider outage,
                                    the sweeper's replays and a person's bulk replay; then a checker counts every
                                    effect (see the chaos options below); also writes FILE.html next to FILE.json
              --orders T        normal orders before the incident (default 50)
              --dead N          orders dead-lettered by the outage (default 200)
              --applied M       of N, applied on a late retry of the producer (default 12)
              --legacy K        of N, with a pre-migration payload that has no upcaster (default 3)
              --copies C        duplicate storm: the most deliveries of one order (default 4)
              --practice P      incident: after it, leave P more dead letters in quarantine for a person to work
                                on with the CLI or the console (no window approves them): several failure classes
                                (TRANSIENT, PERMANENT, SCHEMA, POISON), error types and dependencies (both
                                consumers), in two time spans (3 h ago and since the outage); e.g. --practice 400
              --keep-running    after the scenario and its report, keep local AWS, the functions, their pollers
                                and the schedules running until Ctrl-C or SIGTERM (the settings to paste for the
                                CLI, the console and the AWS CLI are printed once local AWS is up, and again)
              --report FILE     also write the report as JSON
              --max-instances I sandboxes per function (default 2)
              --schedule-speed S  schedules fire S times faster than their rate (default 6)
              --template FILE   the synthesized template (default tooling/localrun/target/cdk.out/Redrive.template.json)
              --functions DIR   the packaged functions (default examples/checkout/functions/target)
              --seed S          seeds the traffic and the faults (default 20261129)
              --no-class-data-archive  start every sandbox from the jars, as Lambda does (by default the run
                                maps a class-data archive of the function artifact into its sandboxes: cheaper
                                and shorter cold starts than Lambda's)
            """ + ChaosOptions.USAGE;

    public static RunOptions parse(String[] args) {
        String scenario = "incident";
        int orders = 50;
        int dead = 200;
        int applied = 12;
        int legacy = 3;
        int copies = 4;
        Optional<Path> report = Optional.empty();
        Path template = Path.of("tooling/localrun/target/cdk.out/Redrive.template.json");
        Path functions = Path.of("examples/checkout/functions/target");
        int maxInstances = 2;
        double speed = 6;
        long seed = 20261129L;
        boolean ordersGiven = false;
        boolean copiesGiven = false;
        boolean classDataArchive = true;
        boolean keepRunning = false;
        int practice = 0;
        List<String> chaosArgs = new ArrayList<>();
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            if ("--help".equals(flag) || "-h".equals(flag)) {
                throw new UsageException(null);
            }
            if ("--no-faults".equals(flag) || "--each-at-least-once".equals(flag)) {
                chaosArgs.add(flag);
                continue;
            }
            if ("--no-class-data-archive".equals(flag)) {
                classDataArchive = false;
                continue;
            }
            if ("--keep-running".equals(flag)) {
                keepRunning = true;
                continue;
            }
            if (rest.isEmpty()) {
                throw new UsageException(flag + " needs a value");
            }
            String value = rest.remove(0);
            if (ChaosOptions.isChaosFlag(flag)) {
                chaosArgs.add(flag);
                chaosArgs.add(value);
                continue;
            }
            switch (flag) {
                case "--scenario" -> scenario = value;
                case "--orders" -> {
                    orders = positive(flag, value, 0);
                    ordersGiven = true;
                }
                case "--seed" -> seed = seed(value);
                case "--dead" -> dead = positive(flag, value, 1);
                case "--applied" -> applied = positive(flag, value, 0);
                case "--legacy" -> legacy = positive(flag, value, 0);
                case "--practice" -> practice = positive(flag, value, 0);
                case "--copies" -> {
                    copies = positive(flag, value, 1);
                    copiesGiven = true;
                }
                case "--report" -> report = Optional.of(Path.of(value));
                case "--template" -> template = Path.of(value);
                case "--functions" -> functions = Path.of(value);
                case "--max-instances" -> maxInstances = positive(flag, value, 1);
                case "--schedule-speed" -> speed = positive(flag, value, 1);
                default -> throw new UsageException("unknown option " + flag);
            }
        }
        if (!SCENARIOS.contains(scenario)) {
            throw new UsageException("unknown scenario '" + scenario + "' (one of " + SCENARIOS + ")");
        }
        if (applied + legacy > dead) {
            throw new UsageException(
                    "--applied (" + applied + ") + --legacy (" + legacy + ") exceed --dead (" + dead + ")");
        }
        if (practice > 0 && !"incident".equals(scenario)) {
            throw new UsageException(
                    "--practice is an option of the incident scenario (--scenario incident), not of " + scenario);
        }
        Optional<ChaosOptions> chaos = Optional.empty();
        if ("chaos".equals(scenario)) {
            if (!copiesGiven) {
                chaosArgs.addAll(List.of("--copies", "3"));
            } else {
                chaosArgs.addAll(List.of("--copies", Integer.toString(copies)));
            }
            try {
                chaos = Optional.of(ChaosOptions.parse(seed, chaosArgs));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            if (!ordersGiven) {
                orders = 1000;
            }
        } else if (!chaosArgs.isEmpty()) {
            throw new UsageException(chaosArgs.get(0) + " is an option of the chaos scenario (--scenario chaos)");
        }
        return new RunOptions(
                scenario,
                orders,
                dead,
                applied,
                legacy,
                copies,
                report,
                template,
                functions,
                maxInstances,
                speed,
                Path.of("tooling/localrun/target/run"),
                seed,
                chaos,
                classDataArchive,
                practice,
                keepRunning);
    }

    private static long seed(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException("--seed takes a whole number, not '" + value + "'");
        }
    }

    private static int positive(String flag, String value, int min) {
        try {
            int n = Integer.parseInt(value);
            if (n < min) {
                throw new UsageException(flag + " must be at least " + min + ", was " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " takes a whole number, not '" + value + "'");
        }
    }

    /** A bad command line; the message says what is wrong (null: just print the usage). */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }
}
