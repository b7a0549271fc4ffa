package dev.redrive.localrun.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.localrun.eventsource.SqsEventSourcePoller;
import dev.redrive.localrun.lambda.FunctionArtifact;
import dev.redrive.localrun.lambda.FunctionInstance;
import dev.redrive.localrun.lambda.FunctionPool;
import dev.redrive.localrun.lambda.InvocationResult;
import dev.redrive.localrun.lambda.ManagedJavaRuntime;
import dev.redrive.localrun.lambda.SandboxSpec;
import dev.redrive.localstack.provision.LocalEventSourceMapping;
import dev.redrive.localstack.provision.LocalFunction;
import dev.redrive.localstack.provision.LocalQueue;
import dev.redrive.localstack.provision.ProvisionedResources;
import dev.redrive.localstack.provision.TemplateProvisioner;
import dev.redrive.testing.localaws.LocalAws;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Any app's synthesized stack on local AWS, run the way Lambda runs it: the template provisioned (tables, queues,
 * buckets, the routes document a bucket deployment writes), every Java function from <em>its own</em> code asset of
 * the cloud assembly under AWS's runtime interface client with the function's {@code Handler}, and every SQS event
 * source mapping polled. Unlike the checkout's local run, which runs one artifact for every function, nothing here
 * knows the app: a team's consumers run their jar, Redrive's sweeper runs its own.
 */
public final class TemplateApp implements AutoCloseable {

    private final LocalAws aws;
    private final ProvisionedResources resources;
    private final Map<String, FunctionPool> pools = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> environments = new LinkedHashMap<>();
    private final Map<String, FunctionArtifact> artifacts = new LinkedHashMap<>();
    private final List<SqsEventSourcePoller> pollers = new ArrayList<>();

    private TemplateApp(LocalAws aws, ProvisionedResources resources) {
        this.aws = aws;
        this.resources = resources;
    }

    /**
     * Provisions {@code template} (in its cloud assembly) on {@code aws} and starts its Java functions and their
     * pollers; {@code overrides} adds variables by function logical id prefix (a local run's shorter backoff, a stub's
     * URL). Sandbox logs go to {@code workDir}.
     */
    public static TemplateApp start(
            Path template, LocalAws aws, Path workDir, Map<String, Map<String, String>> overrides)
            throws IOException, InterruptedException {
        Path assembly = template.toAbsolutePath().normalize().getParent();
        JsonNode resourcesJson = new ObjectMapper().readTree(template.toFile()).path("Resources");
        ProvisionedResources resources = new TemplateProvisioner(aws).provision(template);
        TemplateApp app = new TemplateApp(aws, resources);
        try {
            Files.createDirectories(workDir);
            ManagedJavaRuntime runtime = ManagedJavaRuntime.unpackInto(Files.createTempDirectory(workDir, "run-"));
            for (LocalFunction f : resources.functions().values()) {
                if (!f.runtime().startsWith("java")) {
                    continue; // the bucket deployment's Python handler: its work is the provisioner's
                }
                JsonNode resource = resourcesJson.path(f.logicalId());
                String asset = resource.path("Metadata").path("aws:asset:path").asText("");
                String key =
                        resource.path("Properties").path("Code").path("S3Key").asText("");
                if (asset.isEmpty() && !key.isEmpty()) {
                    // a file asset is staged as asset.<hash>.<extension>; its S3 key is <hash>.<extension>
                    asset = "asset." + key;
                }
                if (asset.isEmpty()) {
                    throw new IllegalStateException("function " + f.logicalId() + " has no code asset in " + template);
                }
                FunctionArtifact artifact = FunctionArtifact.ofJar(assembly.resolve(asset));
                Map<String, String> env = new HashMap<>(f.environment());
                env.putAll(aws.environment());
                env.put("_HANDLER", f.handler());
                overrides.forEach((prefix, variables) -> {
                    if (f.logicalId().startsWith(prefix)) {
                        env.putAll(variables);
                    }
                });
                app.environments.put(f.logicalId(), Map.copyOf(env));
                app.artifacts.put(f.logicalId(), artifact);
                SandboxSpec spec = new SandboxSpec(f.logicalId(), f.arn(), artifact, f.memoryMb(), env);
                FunctionPool pool = new FunctionPool(
                        f.logicalId(),
                        (slot, exits) -> new FunctionInstance(
                                spec, slot, runtime, workDir.resolve(f.logicalId() + "-" + slot + ".log"), exits),
                        f.timeout(),
                        Duration.ofSeconds(90),
                        1);
                app.pools.put(f.logicalId(), pool);
                pool.warm();
                pool.failIfCannotStart();
            }
            for (LocalEventSourceMapping m : resources.eventSourceMappings()) {
                FunctionPool pool = app.pools.get(m.functionLogicalId());
                if (!m.enabled() || pool == null) {
                    continue;
                }
                LocalQueue q = resources.queues().get(m.queueLogicalId());
                SqsEventSourcePoller poller = new SqsEventSourcePoller(
                        aws.sqs(),
                        pool,
                        new SqsEventSourcePoller.Settings(
                                q.url(),
                                q.arn(),
                                m.batchSize(),
                                m.maximumBatchingWindow(),
                                1,
                                m.reportsBatchItemFailures()),
                        aws.region().id());
                app.pollers.add(poller);
                poller.start();
            }
            return app;
        } catch (IOException | InterruptedException | RuntimeException e) {
            app.close();
            throw e;
        }
    }

    /** The logical id of the one Java function whose id starts with {@code prefix}. */
    public String function(String prefix) {
        List<String> matches =
                pools.keySet().stream().filter(id -> id.startsWith(prefix)).toList();
        if (matches.size() != 1) {
            throw new IllegalArgumentException(
                    "no single function's logical id starts with " + prefix + ": the functions are " + pools.keySet());
        }
        return matches.get(0);
    }

    /** Invokes the function {@code logicalId} once, as a schedule or a person would. */
    public InvocationResult invoke(String logicalId, String payload) throws InterruptedException {
        return pools.get(logicalId).invoke(payload);
    }

    /** The environment the function {@code logicalId} runs with (its template's, local endpoints, overrides). */
    public Map<String, String> environmentOf(String logicalId) {
        return environments.get(logicalId);
    }

    /** The code the function {@code logicalId} runs: its asset, and the runtime interface client. */
    public FunctionArtifact artifactOf(String logicalId) {
        return artifacts.get(logicalId);
    }

    /** What the template provisioned. */
    public ProvisionedResources resources() {
        return resources;
    }

    /** The local AWS it runs on. */
    public LocalAws aws() {
        return aws;
    }

    @Override
    public void close() {
        pollers.forEach(SqsEventSourcePoller::close);
        pools.values().forEach(FunctionPool::close);
    }
}
