package dev.redrive.functions.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one side spent on one workload over the timed batches: wall time per batch, messages, calls by operation. */
final class BatchTally {

    private final List<Long> batchNanos = new ArrayList<>();
    private final Map<String, Integer> dynamoDb = new TreeMap<>();
    private int sqsCalls;
    private long dynamoDbMillis;
    private int messages;
    private int mostConcurrent;

    void add(
            long nanos,
            int batchSize,
            Map<String, Integer> dynamoDbCalls,
            long millisInDynamoDb,
            int sqsCalls,
            int concurrentCalls) {
        mostConcurrent = Math.max(mostConcurrent, concurrentCalls);
        batchNanos.add(nanos);
        messages += batchSize;
        dynamoDbCalls.forEach((op, n) -> dynamoDb.merge(op, n, Integer::sum));
        this.sqsCalls += sqsCalls;
        dynamoDbMillis += millisInDynamoDb;
    }

    int messages() {
        return messages;
    }

    /** The most downstream calls one batch had in flight at once. */
    int mostConcurrent() {
        return mostConcurrent;
    }

    int batches() {
        return batchNanos.size();
    }

    double messagesPerSecond() {
        return messages / (batchNanos.stream().mapToLong(Long::longValue).sum() / 1e9);
    }

    /** The p-th percentile (nearest rank) of the batches' wall time, in milliseconds. */
    double percentileMillis(double p) {
        List<Long> sorted = new ArrayList<>(batchNanos);
        sorted.sort(null);
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, rank - 1)) / 1e6;
    }

    Map<String, Integer> dynamoDbCalls() {
        return dynamoDb;
    }

    double dynamoDbCallsPerMessage() {
        return dynamoDb.values().stream().mapToInt(Integer::intValue).sum() / (double) messages;
    }

    double sqsCallsPerMessage() {
        return sqsCalls / (double) messages;
    }

    double writeUnitsPerMessage(int largestItemBytes) {
        return WriteUnits.of(dynamoDb, largestItemBytes) / (double) messages;
    }

    /** Time spent inside DynamoDB calls per batch, summed over the batch's threads, in milliseconds. */
    double dynamoDbMillisPerBatch() {
        return dynamoDbMillis / (double) batchNanos.size();
    }
}
