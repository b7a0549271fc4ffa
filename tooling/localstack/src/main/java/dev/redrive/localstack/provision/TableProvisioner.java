package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Creates an {@code AWS::DynamoDB::Table} on demand with its key schema, attribute definitions, global and local
 * secondary indexes, stream and TTL. Provisioned throughput, encryption and point-in-time recovery are ignored. A
 * table that exists is left as it is.
 */
final class TableProvisioner {

    private final DynamoDbClient dynamoDb;
    private final IntrinsicResolver resolver;
    private final ResourceRegistry registry;

    TableProvisioner(DynamoDbClient dynamoDb, IntrinsicResolver resolver, ResourceRegistry registry) {
        this.dynamoDb = dynamoDb;
        this.resolver = resolver;
        this.registry = registry;
    }

    LocalTable create(Resource resource) {
        JsonNode props = resolver.resolve(resource.properties());
        String name = registry.physicalName(resource, "TableName");
        TableDescription table;
        try {
            table = dynamoDb.createTable(request(name, props)).tableDescription();
            if (table.latestStreamArn() != null) {
                // the stream as every later describe names it (moto's create answer labels it differently)
                table = dynamoDb.describeTable(b -> b.tableName(name)).table();
            }
            JsonNode ttl = props.path("TimeToLiveSpecification");
            if (ttl.path("Enabled").asBoolean(false)) {
                dynamoDb.updateTimeToLive(b -> b.tableName(name)
                        .timeToLiveSpecification(
                                s -> s.attributeName(ttl.path("AttributeName").asText())
                                        .enabled(true)));
            }
        } catch (ResourceInUseException exists) {
            table = dynamoDb.describeTable(b -> b.tableName(name)).table();
        }
        Optional<String> stream = Optional.ofNullable(table.latestStreamArn());
        Map<String, String> attributes = new HashMap<>(Map.of("Arn", table.tableArn()));
        stream.ifPresent(s -> attributes.put("StreamArn", s));
        registry.register(resource.logicalId(), name, attributes);
        return new LocalTable(resource.logicalId(), name, table.tableArn(), stream);
    }

    private static CreateTableRequest request(String name, JsonNode props) {
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(keySchema(props.path("KeySchema")))
                .attributeDefinitions(attributeDefinitions(props.path("AttributeDefinitions")));
        List<GlobalSecondaryIndex> globals = new ArrayList<>();
        props.path("GlobalSecondaryIndexes")
                .forEach(i -> globals.add(GlobalSecondaryIndex.builder()
                        .indexName(i.path("IndexName").asText())
                        .keySchema(keySchema(i.path("KeySchema")))
                        .projection(projection(i.path("Projection")))
                        .build()));
        if (!globals.isEmpty()) {
            request.globalSecondaryIndexes(globals);
        }
        List<LocalSecondaryIndex> locals = new ArrayList<>();
        props.path("LocalSecondaryIndexes")
                .forEach(i -> locals.add(LocalSecondaryIndex.builder()
                        .indexName(i.path("IndexName").asText())
                        .keySchema(keySchema(i.path("KeySchema")))
                        .projection(projection(i.path("Projection")))
                        .build()));
        if (!locals.isEmpty()) {
            request.localSecondaryIndexes(locals);
        }
        JsonNode stream = props.path("StreamSpecification");
        if (stream.has("StreamViewType")) {
            request.streamSpecification(s -> s.streamEnabled(true)
                    .streamViewType(stream.path("StreamViewType").asText()));
        }
        return request.build();
    }

    private static List<KeySchemaElement> keySchema(JsonNode schema) {
        List<KeySchemaElement> out = new ArrayList<>();
        schema.forEach(k -> out.add(KeySchemaElement.builder()
                .attributeName(k.path("AttributeName").asText())
                .keyType(k.path("KeyType").asText())
                .build()));
        return out;
    }

    private static List<AttributeDefinition> attributeDefinitions(JsonNode definitions) {
        List<AttributeDefinition> out = new ArrayList<>();
        definitions.forEach(d -> out.add(AttributeDefinition.builder()
                .attributeName(d.path("AttributeName").asText())
                .attributeType(d.path("AttributeType").asText())
                .build()));
        return out;
    }

    private static Projection projection(JsonNode projection) {
        Projection.Builder out = Projection.builder()
                .projectionType(projection.path("ProjectionType").asText("ALL"));
        List<String> nonKey = new ArrayList<>();
        projection.path("NonKeyAttributes").forEach(a -> nonKey.add(a.asText()));
        if (!nonKey.isEmpty()) {
            out.nonKeyAttributes(nonKey);
        }
        return out.build();
    }
}
