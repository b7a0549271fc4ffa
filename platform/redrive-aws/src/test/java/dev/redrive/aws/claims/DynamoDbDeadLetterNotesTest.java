package dev.redrive.aws.claims;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.core.claim.IdempotencyKey;
import dev.redrive.core.sweeper.DeadLetterNotes;
import dev.redrive.testing.localaws.LocalAws;
import dev.redrive.testing.localaws.LocalResources;
import dev.redrive.testing.sweeper.DeadLetterNotesContract;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The dead-letter notes contract on DynamoDB (the claims table's layout), on local AWS. */
class DynamoDbDeadLetterNotesTest extends DeadLetterNotesContract {

    private static LocalAws aws;
    private static String claimsTable;

    @BeforeAll
    static void createTable() {
        aws = LocalAws.shared();
        claimsTable = "notes-claims-" + UUID.randomUUID().toString().substring(0, 8);
        LocalResources.createTable(aws.dynamoDb(), claimsTable);
    }

    @Override
    protected DeadLetterNotes newNotes() {
        return new DynamoDbDeadLetterNotes(aws.dynamoDb(), claimsTable);
    }

    @Test
    void aNoteIsNeverAClaimAndAClaimNeverANote() {
        notes.keep(key("{}"), failure("Rule", "confirmation-email#e-1"), LATER);

        String pk = DynamoDbDeadLetterNotes.key(key("{}")).get(ClaimItems.PK).s();
        assertThat(pk).doesNotContain("#");
        assertThat(IdempotencyKey.tryParse(pk))
                .as("no claim key reads as a note's")
                .isEmpty();
        assertThat(new DynamoDbClaimStore(aws.dynamoDb(), claimsTable)
                        .find(new IdempotencyKey("confirmation-email", "e-1"), NOW))
                .isEmpty();
    }
}
