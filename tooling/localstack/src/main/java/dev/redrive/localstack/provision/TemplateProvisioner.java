package dev.redrive.localstack.provision;

import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import dev.redrive.testing.localaws.LocalAws;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Creates on a {@link LocalAws} the queues, tables and buckets of a synthesized CloudFormation template, and reads
 * its functions, SQS event source mappings and schedules for the local runner, so that local tests and the local run
 * use the settings the IaC deploys.
 *
 * <ul>
 *   <li>Created: {@code AWS::SQS::Queue}, {@code AWS::DynamoDB::Table}, {@code AWS::S3::Bucket}, each after what it
 *       refers to (a dead-letter queue before its source).</li>
 *   <li>Read: {@code AWS::Lambda::Function}, {@code AWS::Lambda::EventSourceMapping} (SQS and DynamoDB streams),
 *       {@code AWS::Lambda::Url},
 *       {@code AWS::Scheduler::Schedule}, with every intrinsic resolved to local names, URLs and ARNs.</li>
 *   <li>Done: {@code Custom::CDKBucketDeployment}: the files of its assets, from the cloud assembly beside the
 *       template, are put into the destination bucket (its handler function, CDK's, is not read as a function).</li>
 *   <li>Skipped: everything else (IAM, KMS, alarms, dashboards, log groups, policies). A {@code Ref} or ARN of a
 *       skipped resource resolves to a stable made-up value (a KMS key gets a fake key id and ARN).</li>
 *   <li>Names: the template's explicit names, else {@code <stack>-<logicalId>} in lower case.</li>
 * </ul>
 * Provisioning is idempotent: twice on the same local AWS (with or without a {@link LocalAws#reset()} between)
 * gives the same resources.
 */
public final class TemplateProvisioner {

    private final LocalAws aws;

    public TemplateProvisioner(LocalAws aws) {
        this.aws = aws;
    }

    /** Provisions the template file; the stack name is the file name up to {@code .template.json}. */
    public ProvisionedResources provision(Path templateFile) {
        if (!Files.isRegularFile(templateFile)) {
            throw new TemplateException("no template at " + templateFile.toAbsolutePath()
                    + ": synthesize it first (./mvnw -pl examples/checkout/infra package)");
        }
        String file = templateFile.getFileName().toString();
        String stack = file.endsWith(".template.json")
                ? file.substring(0, file.length() - ".template.json".length())
                : file.replaceFirst("\\.json$", "");
        return provision(
                CloudFormationTemplate.read(templateFile), stack, Optional.ofNullable(templateFile.getParent()));
    }

    /** Provisions {@code template} as the stack {@code stackName} (a bucket deployment needs the cloud assembly). */
    public ProvisionedResources provision(CloudFormationTemplate template, String stackName) {
        return provision(template, stackName, Optional.empty());
    }

    /**
     * Provisions {@code template} as the stack {@code stackName}, copying the files of its bucket deployments from the
     * cloud assembly {@code assembly} (the template's folder, {@code cdk.out}).
     */
    public ProvisionedResources provision(CloudFormationTemplate template, String stackName, Optional<Path> assembly) {
        ResourceRegistry registry = new ResourceRegistry(template, stackName, LocalAws.REGION, LocalAws.ACCOUNT_ID);
        IntrinsicResolver resolver = new IntrinsicResolver(registry, pseudoParameters(stackName), template.mappings());
        registry.resolver(resolver);
        QueueProvisioner queues = new QueueProvisioner(aws.sqs(), resolver, registry);
        TableProvisioner tables = new TableProvisioner(aws.dynamoDb(), resolver, registry);
        BucketProvisioner buckets = new BucketProvisioner(aws.s3(), resolver, registry);

        Map<String, LocalQueue> createdQueues = new LinkedHashMap<>();
        Map<String, LocalTable> createdTables = new LinkedHashMap<>();
        Map<String, LocalBucket> createdBuckets = new LinkedHashMap<>();
        List<Resource> order = template.creationOrder();
        for (Resource resource : order) {
            try {
                switch (resource.type()) {
                    case "AWS::SQS::Queue" -> createdQueues.put(resource.logicalId(), queues.create(resource));
                    case "AWS::DynamoDB::Table" -> createdTables.put(resource.logicalId(), tables.create(resource));
                    case "AWS::S3::Bucket" -> createdBuckets.put(resource.logicalId(), buckets.create(resource));
                    default -> {
                        // not created locally; its Ref and attributes are made up on first use
                    }
                }
            } catch (RuntimeException e) {
                throw new TemplateException(
                        "could not provision " + resource.type() + " " + resource.logicalId() + " locally: "
                                + e.getMessage(),
                        e);
            }
        }

        List<Resource> all = new ArrayList<>(template.resources().values());
        BucketDeployments deployments = new BucketDeployments(aws.s3(), resolver, assembly);
        for (Resource resource : order) {
            if (resource.type().equals(BucketDeployments.TYPE)) {
                deployments.deploy(resource);
            }
        }
        ComputeReader compute = new ComputeReader(resolver, registry);
        Map<String, LocalFunction> functions = compute.functions(all);
        functions.keySet().removeAll(BucketDeployments.handlerFunctions(all));
        List<LocalEventSourceMapping> mappings = new ArrayList<>();
        List<LocalStreamMapping> streamMappings = new ArrayList<>();
        List<LocalFunctionUrl> urls = new ArrayList<>();
        List<LocalSchedule> schedules = new ArrayList<>();
        for (Resource resource : all) {
            if (resource.type().equals("AWS::Lambda::EventSourceMapping")) {
                compute.eventSourceMapping(resource, functions, createdQueues).ifPresent(mappings::add);
                compute.streamMapping(resource, functions, createdTables, createdQueues)
                        .ifPresent(streamMappings::add);
            } else if (resource.type().equals("AWS::Lambda::Url")) {
                urls.add(compute.functionUrl(resource, functions));
            } else if (resource.type().equals("AWS::Scheduler::Schedule")) {
                schedules.add(compute.schedule(resource, functions));
            }
        }
        return new ProvisionedResources(
                stackName,
                inTemplateOrder(template, createdQueues),
                inTemplateOrder(template, createdTables),
                inTemplateOrder(template, createdBuckets),
                functions,
                mappings,
                streamMappings,
                urls,
                schedules);
    }

    private static Map<String, String> pseudoParameters(String stackName) {
        return Map.of(
                "AWS::Region",
                LocalAws.REGION,
                "AWS::AccountId",
                LocalAws.ACCOUNT_ID,
                "AWS::Partition",
                "aws",
                "AWS::URLSuffix",
                "amazonaws.com",
                "AWS::StackName",
                stackName,
                "AWS::StackId",
                "arn:aws:cloudformation:" + LocalAws.REGION + ":" + LocalAws.ACCOUNT_ID + ":stack/" + stackName
                        + "/00000000-0000-0000-0000-000000000000");
    }

    private static <V> Map<String, V> inTemplateOrder(CloudFormationTemplate template, Map<String, V> values) {
        Map<String, V> out = new LinkedHashMap<>();
        template.resources().keySet().stream().filter(values::containsKey).forEach(id -> out.put(id, values.get(id)));
        return out;
    }
}
