package dev.redrive.localrun;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a person pastes into another shell to work on the running local system: the environment the CLI ({@code
 * bin/redrive}) and its console ({@code bin/redrive console}) read — local AWS's endpoints, its region and fake
 * credentials, and the sweeper's own tables, bucket, routes and replay pace, taken from the sweeper's environment in
 * the template, so the CLI sees exactly what the sweeper sees — and the AWS CLI commands that look at the same
 * resources.
 */
public final class OperatorSettings {

    /** The first line of the printed block; {@link #END} is its last. */
    public static final String BEGIN = "# ---- redrive-local: paste into another shell (bash) ----";

    public static final String END = "# ---- end of the settings to paste ----";

    /** The sweeper's variables the CLI reads too (see the CLI's {@code Settings}), copied when the template sets them. */
    static final List<String> SWEEPER_VARIABLES = List.of(
            "REDRIVE_SWEEPER_QUARANTINE_TABLE",
            "REDRIVE_SWEEPER_CONTROL_TABLE",
            "REDRIVE_SWEEPER_ARCHIVE_BUCKET",
            "REDRIVE_SWEEPER_ARCHIVE_KMS_KEY_ID",
            "REDRIVE_ROUTES",
            "REDRIVE_CLAIMS_TABLE",
            "REDRIVE_CLAIM_CHECKS_BUCKET",
            "REDRIVE_CLAIM_CHECKS_READABLE_BUCKETS",
            "REDRIVE_CLAIM_CHECKS_KMS_KEY_ID");

    /** The prefix of the replay pace's variables, which the CLI reads from the same names as the sweeper. */
    static final String REPLAY_PACE_PREFIX = "REDRIVE_REPLAYS_";

    private final Map<String, String> environment;
    private final String sqsEndpoint;
    private final String dynamoDbEndpoint;
    private final String s3Endpoint;

    private OperatorSettings(Map<String, String> environment) {
        this.environment = environment;
        this.sqsEndpoint = environment.get("AWS_ENDPOINT_URL_SQS");
        this.dynamoDbEndpoint = environment.get("AWS_ENDPOINT_URL_DYNAMODB");
        this.s3Endpoint = environment.get("AWS_ENDPOINT_URL_S3");
    }

    /** The settings of {@code system}: its local AWS and its sweeper's environment. */
    public static OperatorSettings of(LocalSystem system) {
        OperatorSettings settings = of(system.aws().environment(), system.environmentOf(LocalSystem.SWEEPER));
        String claims = system.environmentOf(LocalSystem.EMAIL).get("REDRIVE_CLAIMS_TABLE");
        return claims == null ? settings : settings.with("REDRIVE_CLAIMS_TABLE", claims);
    }

    /**
     * The settings from local AWS's client environment ({@code AWS_REGION}, the fake credentials and {@code
     * AWS_ENDPOINT_URL_<SERVICE>}) and the sweeper's environment.
     */
    static OperatorSettings of(Map<String, String> awsEnvironment, Map<String, String> sweeper) {
        Map<String, String> env = new LinkedHashMap<>(awsEnvironment);
        for (String v : SWEEPER_VARIABLES) {
            if (sweeper.containsKey(v)) {
                env.put(v, sweeper.get(v));
            }
        }
        new TreeMap<>(sweeper).forEach((k, v) -> {
            if (k.startsWith(REPLAY_PACE_PREFIX)) {
                env.put(k, v);
            }
        });
        return new OperatorSettings(env);
    }

    /**
     * The settings with {@code variable} set too unless they have it: the claims table is the consumers' (the sweeper
     * may not be told it), and the CLI's idempotency check reads it.
     */
    OperatorSettings with(String variable, String value) {
        Map<String, String> env = new LinkedHashMap<>(environment);
        env.putIfAbsent(variable, value);
        return new OperatorSettings(env);
    }

    /** The environment the CLI and the console are to run with, by variable. */
    public Map<String, String> environment() {
        return Map.copyOf(environment);
    }

    /**
     * The block to paste: one {@code export NAME='value'} line per variable, then the commands for the CLI, the console
     * and the AWS CLI, between {@link #BEGIN} and {@link #END}.
     */
    public String block() {
        StringBuilder b = new StringBuilder();
        b.append(BEGIN).append('\n');
        environment.forEach((k, v) ->
                b.append("export ").append(k).append('=').append(quoted(v)).append('\n'));
        String quarantine = environment.getOrDefault("REDRIVE_SWEEPER_QUARANTINE_TABLE", "redrive-quarantine");
        String archive = environment.getOrDefault("REDRIVE_SWEEPER_ARCHIVE_BUCKET", "redrive-archive");
        b.append("# the CLI (from the repository's root; the settings above are all it reads):\n");
        b.append("#   bin/redrive list --group\n");
        b.append("#   bin/redrive list --state QUARANTINED\n");
        b.append("# the console (prints its URL, with a one-time token, on 127.0.0.1):\n");
        b.append("#   bin/redrive console\n");
        b.append("# the AWS CLI (the fake credentials and region above; one endpoint per service):\n");
        b.append("#   aws --endpoint-url ").append(sqsEndpoint).append(" sqs list-queues\n");
        b.append("#   aws --endpoint-url ")
                .append(dynamoDbEndpoint)
                .append(" dynamodb scan --table-name ")
                .append(quarantine)
                .append(" --select COUNT\n");
        b.append("#   aws --endpoint-url ")
                .append(s3Endpoint)
                .append(" s3 ls s3://")
                .append(archive)
                .append(" --recursive\n");
        b.append(END).append('\n');
        return b.toString();
    }

    /** {@code value} in single quotes for a POSIX shell (a quote inside closes, escapes and reopens). */
    static String quoted(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
