package dev.redrive.localstack.provision;

import java.util.Optional;

/**
 * An EventBridge Scheduler schedule of the template.
 *
 * @param logicalId         its logical id
 * @param expression        e.g. {@code rate(5 minutes)} or {@code cron(...)}
 * @param timezone          the expression's time zone ({@code Etc/UTC} when none)
 * @param targetFunctionLogicalId the function it invokes, when its target is one of the template's functions
 * @param input             the input it sends (the target's {@code Input}, empty when none)
 * @param enabled           whether the schedule is enabled
 */
public record LocalSchedule(
        String logicalId,
        String expression,
        String timezone,
        Optional<String> targetFunctionLogicalId,
        String input,
        boolean enabled) {}
