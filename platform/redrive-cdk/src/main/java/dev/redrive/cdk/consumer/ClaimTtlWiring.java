package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.IsoDurations;
import dev.redrive.cdk.storage.Buckets;
import dev.redrive.cdk.sweeper.DlqSweeper;
import dev.redrive.core.payload.ClaimCheckCleanup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * Tells every function that claims or looks claims up how long claims count, and what that must cover (they check it
 * again at start), and gives them the claim-check bucket: the consumers read payloads through it (and check in a dead
 * letter too large to go inline), the sweeper reads them for its checks and the archive (and checks in an upcast one).
 * Payloads are kept as long as claims. One rule for every stack: the platform construct and the example's stack call
 * it alike.
 */
public final class ClaimTtlWiring {

    /**
     * What every function may do with claim-check payloads: read them, and check one in. No delete unless
     * {@link ClaimCheckCleanup#AFTER_APPLY} (then the consumers only): payloads expire by the bucket's lifecycle rule.
     */
    public static final List<String> CLAIM_CHECK_ACTIONS = List.of("s3:GetObject", "s3:PutObject");

    /**
     * What every function that reads claim checks may do with the claim-check bucket itself: list it. Not to list
     * anything, but so that S3 answers a GetObject of a payload that is gone with 404 NoSuchKey: to a role without
     * {@code s3:ListBucket} it answers 403 AccessDenied (S3's GetObject documentation, "Permissions"), which cannot be
     * told from a payload this role may not read. The functions can read every payload already; listing their keys
     * shows nothing more.
     */
    public static final List<String> CLAIM_CHECK_BUCKET_ACTIONS = List.of("s3:ListBucket");

    private ClaimTtlWiring() {}

    /**
     * Sets the claim TTL's variables and the claim-check bucket on {@code consumers} and {@code sweeper}, expires the
     * bucket's payloads after the TTL, grants the payloads, and the delete after apply to the consumers when
     * {@code cleanup} says so. A consumer function imported from elsewhere gets the grants; its variables are the
     * team's to set (its {@link AttachedConsumer} warned).
     */
    public static void apply(
            ClaimTtl ttl,
            Buckets buckets,
            List<? extends IIdempotentConsumer> consumers,
            DlqSweeper sweeper,
            ClaimCheckCleanup cleanup) {
        Map<String, String> variables = new TreeMap<>();
        variables.put(ConsumerEnvironment.CLAIMS_RECORD_TTL, IsoDurations.format(ttl.ttl()));
        variables.put(ConsumerEnvironment.CLAIMS_SOURCE_RETENTION, IsoDurations.format(ttl.sourceRetention()));
        variables.put(ConsumerEnvironment.CLAIMS_DEAD_LETTER_RETENTION, IsoDurations.format(ttl.deadLetterRetention()));
        variables.put(ConsumerEnvironment.SWEEPER_RETENTION, IsoDurations.format(ttl.quarantineRetention()));
        buckets.expireClaimChecks(ttl.ttl());
        variables.put(
                ConsumerEnvironment.CLAIM_CHECKS_BUCKET, buckets.claimChecks().getBucketName());
        List<IFunction> functions = new ArrayList<>();
        consumers.forEach(c -> functions.add(c.function()));
        functions.add(sweeper.function());
        for (IFunction f : functions) {
            if (f instanceof Function own) {
                variables.forEach(own::addEnvironment);
            }
            f.addToRolePolicy(PolicyStatement.Builder.create()
                    .sid("ClaimCheckPayloads")
                    .actions(CLAIM_CHECK_ACTIONS)
                    .resources(List.of(buckets.claimChecks().arnForObjects("*")))
                    .build());
            f.addToRolePolicy(PolicyStatement.Builder.create()
                    .sid("ClaimCheckPayloadsGoneAre404")
                    .actions(CLAIM_CHECK_BUCKET_ACTIONS)
                    .resources(List.of(buckets.claimChecks().getBucketArn()))
                    .build());
        }
        // the sweeper's environment is the one near Lambda's 4 KB: check it with these too
        sweeper.requireEnvironmentFits(variables);
        for (IIdempotentConsumer c : consumers) {
            // Only the consumers ever delete a payload, and only when told to: after its effect is applied.
            if (c.function() instanceof Function own) {
                own.addEnvironment(ConsumerEnvironment.CLAIM_CHECKS_CLEANUP, cleanup.name());
            }
            if (cleanup == ClaimCheckCleanup.AFTER_APPLY) {
                c.function()
                        .addToRolePolicy(PolicyStatement.Builder.create()
                                .sid("ClaimCheckPayloadsDeletedAfterApply")
                                .actions(List.of("s3:DeleteObject"))
                                .resources(List.of(buckets.claimChecks().arnForObjects("*")))
                                .build());
            }
        }
    }
}
