package dev.redrive.localrun.chaos;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The chaos scenario's settings: what to inject ({@link FaultPlan}) and the traffic around it.
 *
 * @param plan            the faults, their rates and the seed
 * @param producers       producers sending at once
 * @param maxCopies       each order is delivered 1..maxCopies times, each with a new message id
 * @param backlog         the producers send while a consumer's queue holds fewer visible messages than this, and
 *                        wait while it holds more: orders arrive as the consumers take them, as checkouts do, rather
 *                        than all at once. A message the mail provider's outage defers then comes back behind a short
 *                        queue, so it runs out of receives during the outage and dead-letters (behind a backlog of
 *                        all the orders, its next receive would come after the provider recovered)
 * @param outage          how long the mail provider is down (its S3 writes answer 503), in the middle of the traffic
 * @param sweeperTimeout  the sweeper's invocation timeout here (the template's is 5 min; a killed sweeper's lease
 *                        lasts as long, so the chaos run invokes it with a shorter one)
 * @param sweepEvery      how often the run invokes the sweeper (besides its schedule)
 * @param operatorEvery   how often the scripted operator runs its bulk replay
 * @param drainTimeout    how long the system may take to drain once the faults stop
 * @param rejectedShare   the share of orders in a currency the revenue report refuses (PERMANENT, archived by a
 *                        person with a note)
 * @param declinedShare   the share of checkouts paid with a card the provider declines (402, no order, no charge)
 * @param abandonShare    the chance that a customer whose checkout got no final answer (a 5xx, or none at all) gives
 *                        up instead of retrying with its key: what it leaves half done is the reconciliation's to void
 * @param returnShare     the chance that a customer who gave up comes back with the same key after the
 *                        reconciliation's grace (at a time drawn from the seed), and then retries until it has a final
 *                        answer: it meets the reconciliation before, while or after it voids what was left
 */
public record ChaosOptions(
        FaultPlan plan,
        int producers,
        int maxCopies,
        int backlog,
        Duration outage,
        Duration sweeperTimeout,
        Duration sweepEvery,
        Duration operatorEvery,
        Duration drainTimeout,
        double rejectedShare,
        double declinedShare,
        double abandonShare,
        double returnShare) {

    /**
     * The rates of a run that names none: every kind strikes a few times in a few hundred orders. The evidence page's (docs/evidence.md)
     * 10,000-order command passes its own (lower per-call, since its volume does the rest).
     */
    public static final Map<FaultKind, Double> DEFAULT_RATES = defaults();

    /**
     * Kill rates by point. A consumer's steps strike per delivery; the checkout's per checkout that reaches them (so a
     * few in a few hundred orders); the relay's per batch of marks it writes (about one per ten events).
     */
    public static final Map<String, Double> DEFAULT_KILL_RATES = Map.ofEntries(
            Map.entry(Step.TAKES_EVENT.id(), 0.015),
            Map.entry(Step.CLAIM_WRITE.id(), 0.0015),
            Map.entry(Step.EFFECT_CALL.id(), 0.002),
            Map.entry(Step.EFFECT_RESPONSE.id(), 0.002),
            Map.entry(Step.COMPLETED.id(), 0.003),
            Map.entry(Step.RETURNED.id(), 0.03),
            Map.entry(ProducerCrashPoint.CHECKOUT_RESERVED.id(), 0.01),
            Map.entry(ProducerCrashPoint.CHECKOUT_AUTHORIZED.id(), 0.01),
            Map.entry(ProducerCrashPoint.CHECKOUT_PLACED.id(), 0.01),
            Map.entry(ProducerCrashPoint.RELAY_PUBLISHED.id(), 0.03),
            Map.entry(ProducerCrashPoint.RECONCILIATION_VOIDED.id(), 0.2));

    public static final String USAGE = """
              chaos: --seed S  --producers P (4)  --copies C (3)  --backlog N (200)  --outage DURATION (PT20S)
                     --abandon R (0.25: a customer without a final answer gives up instead of retrying)
                     --return R (0.5: a customer who gave up comes back with its key after the reconciliation's grace)
                     --sweeper-timeout DURATION (PT20S)  --sweep-every DURATION (PT3S)
                     --operator-every DURATION (PT5S)  --drain-timeout DURATION (PT10M)
                     fault rates, a chance per opportunity from 0 to 1 (0 turns a kind off):
                     --kill R (every step) or --kill-at STEP=R[,STEP=R...] with STEP one of
                       takes-event, claim-write, effect-call, effect-response, completed, returned (a consumer's),
                       checkout-reserved, checkout-authorized, checkout-placed, relay-published,
                       reconciliation-voided (the producer's)
                     --pause R  --ddb-throttle R  --ddb-500 R  --ddb-conflict R  --s3-slowdown R
                     --sqs-500 R  --latency R  --max-latency DURATION (PT1.5S)  --reset R
                     --sweeper-kill R  --two-sweepers R (the chance a sweep is started twice at once)
                     --provider-hang R (the chance an authorization hangs past the checkout's timeout)
                     --each-at-least-once (each kind and kill point with a rate above 0 also strikes at its
                       first opportunity; the faults stay on until each has struck)
                     --no-faults
            """;

    private static Map<FaultKind, Double> defaults() {
        Map<FaultKind, Double> r = new EnumMap<>(FaultKind.class);
        r.put(FaultKind.SANDBOX_PAUSE, 0.005);
        r.put(FaultKind.DYNAMODB_THROTTLE, 0.003);
        r.put(FaultKind.DYNAMODB_INTERNAL_ERROR, 0.003);
        r.put(FaultKind.DYNAMODB_TRANSACTION_CONFLICT, 0.004);
        r.put(FaultKind.S3_SLOW_DOWN, 0.015);
        r.put(FaultKind.SQS_INTERNAL_ERROR, 0.03);
        r.put(FaultKind.LATENCY, 0.004);
        r.put(FaultKind.CONNECTION_RESET, 0.002);
        r.put(FaultKind.SWEEPER_KILL, 0.03);
        r.put(FaultKind.TWO_SWEEPERS, 0.5);
        r.put(FaultKind.PROVIDER_HANG, 0.01);
        return Map.copyOf(r);
    }

    public static ChaosOptions defaults(long seed) {
        return new ChaosOptions(
                new FaultPlan(seed, DEFAULT_RATES, DEFAULT_KILL_RATES, Duration.ofMillis(1500)),
                4,
                3,
                200,
                Duration.ofSeconds(20),
                Duration.ofSeconds(20),
                Duration.ofSeconds(3),
                Duration.ofSeconds(5),
                Duration.ofMinutes(10),
                0.005,
                0.02,
                0.25,
                0.5);
    }

    public ChaosOptions withPlan(FaultPlan p) {
        return new ChaosOptions(
                p,
                producers,
                maxCopies,
                backlog,
                outage,
                sweeperTimeout,
                sweepEvery,
                operatorEvery,
                drainTimeout,
                rejectedShare,
                declinedShare,
                abandonShare,
                returnShare);
    }

    /**
     * Reads the chaos flags of {@code args} (flag, value pairs) over the defaults for {@code seed}; throws
     * IllegalArgumentException naming a bad flag or value.
     */
    public static ChaosOptions parse(long seed, List<String> args) {
        ChaosOptions o = defaults(seed);
        FaultPlan plan = o.plan();
        int producers = o.producers();
        int copies = o.maxCopies();
        int backlog = o.backlog();
        Duration outage = o.outage();
        Duration sweeperTimeout = o.sweeperTimeout();
        Duration sweepEvery = o.sweepEvery();
        Duration operatorEvery = o.operatorEvery();
        Duration drain = o.drainTimeout();
        double abandon = o.abandonShare();
        double returns = o.returnShare();
        for (int i = 0; i < args.size(); i += 2) {
            String flag = args.get(i).replaceFirst("^--", "");
            String value = i + 1 < args.size() ? args.get(i + 1) : null;
            if ("no-faults".equals(flag)) {
                plan = FaultPlan.none(seed);
                i--;
                continue;
            }
            if ("each-at-least-once".equals(flag)) {
                plan = plan.withEachAtLeastOnce();
                i--;
                continue;
            }
            if (value == null) {
                throw new IllegalArgumentException("--" + flag + " needs a value");
            }
            switch (flag) {
                case "producers" -> producers = count(flag, value);
                case "copies" -> copies = count(flag, value);
                case "backlog" -> backlog = count(flag, value);
                case "outage" -> outage = duration(flag, value);
                case "sweeper-timeout" -> sweeperTimeout = duration(flag, value);
                case "sweep-every" -> sweepEvery = duration(flag, value);
                case "operator-every" -> operatorEvery = duration(flag, value);
                case "drain-timeout" -> drain = duration(flag, value);
                case "abandon" -> abandon = rate(flag, value);
                case "return" -> returns = rate(flag, value);
                case "max-latency" -> plan = plan.withMaxLatency(duration(flag, value));
                case "kill" -> {
                    double rate = rate(flag, value);
                    for (KillPoint p : KillPoint.all().toList()) {
                        plan = plan.withKill(p, rate);
                    }
                }
                case "kill-at" -> {
                    for (String pair : value.split(",")) {
                        String[] kv = pair.split("=", 2);
                        KillPoint point = KillPoint.byId(kv[0].trim())
                                .orElseThrow(() -> new IllegalArgumentException(
                                        "--kill-at: unknown step '" + kv[0] + "' (one of " + KillPoint.ids() + ")"));
                        plan = plan.withKill(point, rate(flag, kv.length > 1 ? kv[1] : ""));
                    }
                }
                default -> {
                    String f = flag;
                    FaultKind kind = FaultKind.byFlag(flag)
                            .orElseThrow(() -> new IllegalArgumentException("unknown chaos option --" + f));
                    plan = plan.with(kind, rate(flag, value));
                }
            }
        }
        if (copies < 1 || producers < 1 || backlog < 1) {
            throw new IllegalArgumentException("--copies, --producers and --backlog must be at least 1");
        }
        return new ChaosOptions(
                plan,
                producers,
                copies,
                backlog,
                outage,
                sweeperTimeout,
                sweepEvery,
                operatorEvery,
                drain,
                o.rejectedShare(),
                o.declinedShare(),
                abandon,
                returns);
    }

    /** Whether {@code flag} is one of the chaos scenario's. */
    public static boolean isChaosFlag(String flag) {
        String f = flag.replaceFirst("^--", "");
        return List.of(
                                "producers",
                                "copies",
                                "backlog",
                                "outage",
                                "sweeper-timeout",
                                "sweep-every",
                                "operator-every",
                                "drain-timeout",
                                "abandon",
                                "return",
                                "max-latency",
                                "kill",
                                "kill-at",
                                "no-faults",
                                "each-at-least-once")
                        .contains(f)
                || FaultKind.byFlag(f).isPresent();
    }

    private static int count(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + flag + " takes a whole number, not '" + value + "'");
        }
    }

    private static double rate(String flag, String value) {
        try {
            double r = Double.parseDouble(value);
            if (!(r >= 0 && r <= 1)) {
                throw new IllegalArgumentException("--" + flag + " is a chance from 0 to 1, not " + value);
            }
            return r;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + flag + " is a chance from 0 to 1, not '" + value + "'");
        }
    }

    private static Duration duration(String flag, String value) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "--" + flag + " takes an ISO-8601 duration such as PT20S, not '" + value + "'");
        }
    }
}
