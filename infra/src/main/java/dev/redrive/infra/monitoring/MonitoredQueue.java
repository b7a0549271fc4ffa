package dev.redrive.infra.monitoring;

import software.amazon.awscdk.services.sqs.IQueue;

/**
 * A queue to alarm on and to chart.
 *
 * @param name       the queue's name, used in alarm names and labels
 * @param queue      the queue
 * @param deadLetter whether it is a dead-letter queue (normally empty: any arrival alarms)
 */
public record MonitoredQueue(String name, IQueue queue, boolean deadLetter) {}
