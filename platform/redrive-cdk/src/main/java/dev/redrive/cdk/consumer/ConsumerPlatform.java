package dev.redrive.cdk.consumer;

import dev.redrive.cdk.function.FunctionFactory;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.kms.IKey;

/**
 * What every {@link IdempotentConsumer} of a stack shares.
 *
 * @param prefix      the name prefix of queues (and everything else named explicitly)
 * @param key         the customer-managed key that encrypts queues, tables and buckets
 * @param claimsTable the idempotency claims table
 * @param functions   makes the functions from the one artifact
 */
public record ConsumerPlatform(String prefix, IKey key, ITable claimsTable, FunctionFactory functions) {}
