package dev.redrive.aws.ledger;

import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import java.util.UUID;

/** The sweeper's tables, created by code under fresh names for the adapters' contract tests. */
final class ControlTables {

    private ControlTables() {}

    static String control(LocalAws aws) {
        String name = "control-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createKeyValueTable(aws.dynamoDb(), name);
        return name;
    }

    static String quarantine(LocalAws aws) {
        String name = "quarantine-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createQuarantineTable(aws.dynamoDb(), name);
        return name;
    }
}
