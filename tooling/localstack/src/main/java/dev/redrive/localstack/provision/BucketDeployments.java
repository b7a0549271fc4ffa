package dev.redrive.localstack.provision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.localstack.provision.CloudFormationTemplate.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Does locally what a CDK {@code BucketDeployment} does at deploy ({@code Custom::CDKBucketDeployment}): copies the
 * files of its source assets, from the cloud assembly beside the template ({@code cdk.out/asset.<hash>/} or
 * {@code asset.<hash>.zip}), into the destination bucket under its key prefix, with the deploy-time values of the
 * asset's markers ({@code SourceMarkers}) put in. The custom resource's own handler function is CDK's, not the
 * project's: the local run does not start it ({@link #handlerFunctions}).
 */
final class BucketDeployments {

    static final String TYPE = "Custom::CDKBucketDeployment";

    private final S3Client s3;
    private final IntrinsicResolver resolver;
    private final Optional<Path> assembly;

    BucketDeployments(S3Client s3, IntrinsicResolver resolver, Optional<Path> assembly) {
        this.s3 = s3;
        this.resolver = resolver;
        this.assembly = assembly;
    }

    /** The logical ids of the functions that serve the template's bucket deployments. */
    static Set<String> handlerFunctions(List<Resource> resources) {
        Set<String> ids = new LinkedHashSet<>();
        for (Resource r : resources) {
            JsonNode att = r.properties().path("ServiceToken").path("Fn::GetAtt");
            if (TYPE.equals(r.type()) && att.isArray() && att.size() > 0) {
                ids.add(att.get(0).asText());
            }
        }
        return ids;
    }

    /** Copies {@code deployment}'s files; returns the keys written. */
    List<String> deploy(Resource deployment) {
        Path cdkOut = assembly.orElseThrow(() -> new TemplateException(deployment.logicalId() + " deploys assets, and "
                + "this template was not read from a cloud assembly (provision the template file in cdk.out)"));
        JsonNode props = deployment.properties();
        String bucket = resolver.resolve(props.path("DestinationBucketName")).asText();
        String prefix = props.has("DestinationBucketKeyPrefix")
                ? resolver.resolve(props.get("DestinationBucketKeyPrefix")).asText()
                : "";
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix = prefix + "/";
        }
        JsonNode keys = props.path("SourceObjectKeys");
        JsonNode markers = props.has("SourceMarkers") ? resolver.resolve(props.get("SourceMarkers")) : null;
        List<String> written = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String hash = keys.get(i).asText().replaceFirst("\\.zip$", "");
            JsonNode marks = markers == null ? null : markers.get(i);
            for (Map.Entry<String, byte[]> file : files(cdkOut, hash).entrySet()) {
                String key = prefix + file.getKey();
                s3.putObject(
                        b -> b.bucket(bucket).key(key), RequestBody.fromBytes(withMarkers(file.getValue(), marks)));
                written.add(key);
            }
        }
        return written;
    }

    private static Map<String, byte[]> files(Path cdkOut, String hash) {
        Path dir = cdkOut.resolve("asset." + hash);
        Path zip = cdkOut.resolve("asset." + hash + ".zip");
        Map<String, byte[]> files = new java.util.TreeMap<>();
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path f : walk.filter(Files::isRegularFile).toList()) {
                        files.put(dir.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
                    }
                }
            } else if (Files.isRegularFile(zip)) {
                try (InputStream in = Files.newInputStream(zip);
                        ZipInputStream entries = new ZipInputStream(in)) {
                    for (ZipEntry e = entries.getNextEntry(); e != null; e = entries.getNextEntry()) {
                        if (!e.isDirectory()) {
                            files.put(e.getName(), entries.readAllBytes());
                        }
                    }
                }
            } else {
                throw new TemplateException("the asset " + hash + " of a bucket deployment is not in " + cdkOut
                        + " (neither asset." + hash + "/ nor asset." + hash + ".zip): synthesize again");
            }
        } catch (IOException e) {
            throw new TemplateException(
                    "the asset " + hash + " in " + cdkOut + " cannot be read: " + e.getMessage(), e);
        }
        return files;
    }

    /** The file with each marker replaced by its value, as the deployment's handler does. */
    private static byte[] withMarkers(byte[] content, JsonNode marks) {
        if (marks == null || !marks.isObject() || marks.isEmpty()) {
            return content;
        }
        String text = new String(content, StandardCharsets.UTF_8);
        for (var it = marks.fields(); it.hasNext(); ) {
            var m = it.next();
            text = text.replace(m.getKey(), m.getValue().asText());
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
