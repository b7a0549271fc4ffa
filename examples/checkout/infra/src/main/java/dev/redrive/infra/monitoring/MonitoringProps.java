package dev.redrive.infra.monitoring;

import java.util.List;
import java.util.Optional;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * What {@link Monitoring} watches and how.
 *
 * @param prefix     the name prefix of alarms and the dashboard
 * @param key        the customer-managed key that encrypts the alarm topic
 * @param queues     every queue to alarm on and chart
 * @param consumers  the consumers' names, for the per-consumer graphs
 * @param breakers   the dependencies whose circuit breakers alarm when they stay open too long
 * @param consumerLogGroups the consumers' log groups, where the breakers' transitions are logged (the dashboard's
 *                   breaker history reads them)
 * @param sweeper    the sweeper function, whose errors alarm
 * @param producer   the checkout producer's functions, when the stack has it: the relay's iterator age alarms, and
 *                   the outbox's oldest unpublished event and the payment provider's unavailability
 * @param thresholds where the alarms fire
 */
public record MonitoringProps(
        String prefix,
        IKey key,
        List<MonitoredQueue> queues,
        List<String> consumers,
        List<String> breakers,
        List<String> consumerLogGroups,
        IFunction sweeper,
        Optional<Producer> producer,
        AlarmThresholds thresholds) {

    /** The checkout producer's functions that alarm: the outbox relay (its iterator age) and the checkout. */
    public record Producer(IFunction relay, IFunction checkout) {}

    /** Copies the lists. */
    public MonitoringProps {
        queues = List.copyOf(queues);
        consumers = List.copyOf(consumers);
        breakers = List.copyOf(breakers);
        consumerLogGroups = List.copyOf(consumerLogGroups);
    }
}
