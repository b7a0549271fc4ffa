package dev.redrive.cdk.function;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * What a functions artifact holds, read at synth from the zip (or directory) the functions are deployed from: Java code
 * (classes, {@code lib/*.jar}) for the JVM runtime, or a {@code bootstrap} for {@code provided.al2023}, which is the
 * native executable itself or a script that starts {@code runner} (Quarkus' {@code src/main/zip.native}).
 *
 * @param javaCode   whether it holds classes or jars
 * @param bootstrap  whether it holds a {@code bootstrap} at its root
 * @param executable the native executable ({@code bootstrap} or {@code runner}) and its machine, if any
 */
record ArtifactContents(boolean javaCode, boolean bootstrap, Optional<NativeExecutable> executable) {

    /** An ELF executable of the artifact. */
    record NativeExecutable(String entry, String machine) {}

    private static final int HEADER = 20;

    /** Reads {@code artifact}; throws {@link IllegalArgumentException} naming the file if it is not a zip. */
    static ArtifactContents of(Path artifact) {
        if (Files.isDirectory(artifact)) {
            try {
                return new ArtifactContents(
                        hasJavaCode(artifact), Files.isRegularFile(artifact.resolve("bootstrap")), executable(name -> {
                            Path file = artifact.resolve(name);
                            return Files.isRegularFile(file) ? Optional.of(head(file)) : Optional.empty();
                        }));
            } catch (IOException e) {
                throw new UncheckedIOException("could not read functionsAsset " + artifact, e);
            }
        }
        try (ZipFile zip = new ZipFile(artifact.toFile())) {
            boolean java = false;
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                java |= name.endsWith(".class") || (name.startsWith("lib/") && name.endsWith(".jar"));
            }
            return new ArtifactContents(java, zip.getEntry("bootstrap") != null, executable(name -> {
                ZipEntry entry = zip.getEntry(name);
                return entry == null ? Optional.empty() : Optional.of(head(zip, entry));
            }));
        } catch (ZipException e) {
            throw new IllegalArgumentException(
                    "functionsAsset " + artifact + " is not a readable zip (" + e.getMessage()
                            + "): deploy the function.zip that ./mvnw -B -ntp package -pl examples/checkout/functions -am writes");
        } catch (IOException e) {
            throw new UncheckedIOException("could not read functionsAsset " + artifact, e);
        }
    }

    private interface Heads {
        Optional<byte[]> head(String name) throws IOException;
    }

    /** {@code bootstrap} if it is ELF, else (a script) {@code runner} if that is ELF. */
    private static Optional<NativeExecutable> executable(Heads heads) throws IOException {
        for (String name : new String[] {"bootstrap", "runner"}) {
            Optional<byte[]> head = heads.head(name);
            if (head.isPresent() && isElf(head.get())) {
                return Optional.of(new NativeExecutable(name, machine(head.get())));
            }
        }
        return Optional.empty();
    }

    static boolean isElf(byte[] head) {
        return head.length >= HEADER && head[0] == 0x7F && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
    }

    /** The ELF {@code e_machine} (bytes 18-19, in the file's byte order) as Lambda names architectures. */
    static String machine(byte[] head) {
        boolean littleEndian = head[5] != 2;
        int machine =
                littleEndian ? (head[18] & 0xFF) | (head[19] & 0xFF) << 8 : (head[19] & 0xFF) | (head[18] & 0xFF) << 8;
        return switch (machine) {
            case 0x3E -> "x86_64";
            case 0xB7 -> "arm64";
            default -> "ELF machine 0x" + Integer.toHexString(machine);
        };
    }

    private static boolean hasJavaCode(Path dir) {
        try (var files = Files.walk(dir)) {
            return files.map(p -> dir.relativize(p).toString())
                    .anyMatch(n -> n.endsWith(".class") || (n.startsWith("lib/") && n.endsWith(".jar")));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read functionsAsset " + dir, e);
        }
    }

    private static byte[] head(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(HEADER);
        }
    }

    private static byte[] head(ZipFile zip, ZipEntry entry) throws IOException {
        try (InputStream in = zip.getInputStream(entry)) {
            return in.readNBytes(HEADER);
        }
    }
}
