package dev.redrive.localstack.provision;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A DynamoDB stream event source mapping of the template: which table's stream feeds which function, and how Lambda
 * handles a batch the function fails.
 *
 * @param logicalId             its logical id
 * @param functionLogicalId     the function it invokes
 * @param tableLogicalId        the table whose stream it reads
 * @param streamArn             that stream's local ARN
 * @param batchSize             records per invocation (100 when the template sets none, as Lambda's default)
 * @param maximumBatchingWindow how long a batch is gathered (0 when none)
 * @param filterPatterns        the FilterCriteria patterns, as JSON text; a record is delivered when one matches
 * @param bisectOnFunctionError whether a failed batch is split in two and each half retried
 * @param maximumRetryAttempts  retries of a failed batch before it goes to the on-failure destination (-1: until the
 *                              record expires)
 * @param onFailureQueueLogicalId the SQS queue that gets a failed batch's description, when one is set
 * @param functionResponseTypes e.g. {@code ReportBatchItemFailures}
 * @param startingPosition      {@code TRIM_HORIZON} or {@code LATEST}
 * @param enabled               whether the mapping is enabled
 */
public record LocalStreamMapping(
        String logicalId,
        String functionLogicalId,
        String tableLogicalId,
        String streamArn,
        int batchSize,
        Duration maximumBatchingWindow,
        List<String> filterPatterns,
        boolean bisectOnFunctionError,
        int maximumRetryAttempts,
        Optional<String> onFailureQueueLogicalId,
        List<String> functionResponseTypes,
        String startingPosition,
        boolean enabled) {

    public LocalStreamMapping {
        filterPatterns = List.copyOf(filterPatterns);
        functionResponseTypes = List.copyOf(functionResponseTypes);
    }

    /** Whether the function answers with partial batch responses ({@code batchItemFailures}). */
    public boolean reportsBatchItemFailures() {
        return functionResponseTypes.contains("ReportBatchItemFailures");
    }
}
