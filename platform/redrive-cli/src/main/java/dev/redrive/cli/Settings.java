package dev.redrive.cli;

import dev.redrive.aws.payload.ClaimCheckSettings;
import dev.redrive.core.replay.ReplayPace;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The names the CLI works with, read from the same {@code REDRIVE_*} environment variables the functions and the IaC
 * use (with the same defaults), each overridable by a flag of the root command.
 */
public final class Settings {

    /** Environment variable names, as the functions read them. */
    public static final String CLAIMS_TABLE = "REDRIVE_CLAIMS_TABLE";

    public static final String QUARANTINE_TABLE = "REDRIVE_SWEEPER_QUARANTINE_TABLE";
    public static final String CONTROL_TABLE = "REDRIVE_SWEEPER_CONTROL_TABLE";
    public static final String ARCHIVE_BUCKET = "REDRIVE_SWEEPER_ARCHIVE_BUCKET";
    public static final String ARCHIVE_KMS_KEY_ID = "REDRIVE_SWEEPER_ARCHIVE_KMS_KEY_ID";
    /** Where the routes document is: {@code s3://bucket/key}, a file path, or the JSON. */
    public static final String ROUTES = "REDRIVE_ROUTES";
    /** The old queues-only routes (read when {@value #ROUTES} is not set, for one minor version; replays refused). */
    public static final String LEGACY_ROUTES = "REDRIVE_SWEEPER_ROUTES";

    public static final String CLAIM_CHECKS_BUCKET = ClaimCheckSettings.BUCKET_VARIABLE;
    public static final String CLAIM_CHECKS_READABLE_BUCKETS = "REDRIVE_CLAIM_CHECKS_READABLE_BUCKETS";
    public static final String CLAIM_CHECKS_KMS_KEY_ID = "REDRIVE_CLAIM_CHECKS_KMS_KEY_ID";
    public static final String BACKOFF_BASE = "REDRIVE_BACKOFF_BASE";
    public static final String BACKOFF_MULTIPLIER = "REDRIVE_BACKOFF_MULTIPLIER";
    public static final String BACKOFF_MAX_DELAY = "REDRIVE_BACKOFF_MAX_DELAY";

    private final CliContext context;
    private final RedriveCli flags;

    Settings(CliContext context, RedriveCli flags) {
        this.context = context;
        this.flags = flags;
    }

    public String claimsTable() {
        return pick(flags.claimsTable, CLAIMS_TABLE, "redrive-claims");
    }

    public String quarantineTable() {
        return pick(flags.quarantineTable, QUARANTINE_TABLE, "redrive-quarantine");
    }

    public String controlTable() {
        return pick(flags.controlTable, CONTROL_TABLE, "redrive-control");
    }

    public String archiveBucket() {
        return pick(flags.archiveBucket, ARCHIVE_BUCKET, "redrive-archive");
    }

    public Optional<String> archiveKmsKeyId() {
        return context.var(ARCHIVE_KMS_KEY_ID);
    }

    /**
     * Where the claim checks are, as the functions are told: a person's replay reads the payload behind a pointer with
     * the same checks as the sweeper's. Without {@value #CLAIM_CHECKS_BUCKET}, a claim check is refused with that reason.
     */
    public ClaimCheckSettings claimChecks() {
        return new ClaimCheckSettings(
                context.var(CLAIM_CHECKS_BUCKET),
                context.var(CLAIM_CHECKS_READABLE_BUCKETS)
                        .map(v -> Arrays.stream(v.split(",")).map(String::trim).toList())
                        .orElse(List.of()),
                context.var(CLAIM_CHECKS_KMS_KEY_ID));
    }

    /**
     * Where the routes document is, as the sweeper is told ({@code --routes}, else {@value #ROUTES}): {@code
     * s3://bucket/key}, a file path or the JSON; else the old {@value #LEGACY_ROUTES} array; else no routes.
     */
    public String routes() {
        return pick(flags.routes, ROUTES, context.var(LEGACY_ROUTES).orElse("[]"));
    }

    /**
     * The pace of replays, from the sweeper's own variables ({@code REDRIVE_REPLAYS_*}, see the README), so that a
     * person's replays and the sweeper's book one lane's slots at the same rate.
     */
    public ReplayPace replayPace() {
        try {
            return ReplayPace.fromVariables(context::var);
        } catch (IllegalArgumentException e) {
            throw CliException.config(e.getMessage());
        }
    }

    /** A backoff setting from the environment, as the consumers read it. */
    public Optional<String> backoff(String variable) {
        return context.var(variable);
    }

    /** The tables in use, with the variables that set them: for error messages. */
    public String describeTables() {
        return "quarantine table '" + quarantineTable() + "' (" + QUARANTINE_TABLE + " or --quarantine-table), "
                + "control table '" + controlTable() + "' (" + CONTROL_TABLE + " or --control-table), claims table '"
                + claimsTable() + "' (" + CLAIMS_TABLE + " or --claims-table)";
    }

    private String pick(String flag, String variable, String fallback) {
        if (flag != null && !flag.isBlank()) {
            return flag.strip();
        }
        return context.var(variable).orElse(fallback);
    }
}
