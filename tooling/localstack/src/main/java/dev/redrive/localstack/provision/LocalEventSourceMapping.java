package dev.redrive.localstack.provision;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * An SQS event source mapping of the template: which queue feeds which function, and how.
 *
 * @param logicalId            its logical id
 * @param functionLogicalId    the function it invokes
 * @param queueLogicalId       the queue it polls
 * @param batchSize            records per invocation (10 when the template sets none)
 * @param maximumBatchingWindow how long a batch is gathered (0 when none)
 * @param maximumConcurrency   ScalingConfig.MaximumConcurrency, when set
 * @param functionResponseTypes e.g. {@code ReportBatchItemFailures}
 * @param enabled              whether the mapping is enabled
 */
public record LocalEventSourceMapping(
        String logicalId,
        String functionLogicalId,
        String queueLogicalId,
        int batchSize,
        Duration maximumBatchingWindow,
        Optional<Integer> maximumConcurrency,
        List<String> functionResponseTypes,
        boolean enabled) {

    /** Whether the function answers with partial batch responses. */
    public boolean reportsBatchItemFailures() {
        return functionResponseTypes.contains("ReportBatchItemFailures");
    }
}
