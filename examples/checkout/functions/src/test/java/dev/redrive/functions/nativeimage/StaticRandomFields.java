package dev.redrive.functions.nativeimage;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Finds static fields declared as a random number generator in the class files of jars. A class initialized at
 * build time stores its static fields in the image heap, and native-image refuses a {@code Random} or
 * {@code SecureRandom} there ("Detected an instance of Random/SplittableRandom class in the image heap"): its seed
 * would be the same in every process. Reads the class file format directly (constant pool and field table), so
 * nothing is loaded or initialized. Only the declared type counts: a generator held inside another object is not
 * found. GraalVM substitutions ({@code @TargetClass}) are skipped: they alias the fields of the class they substitute
 * and are never initialized themselves.
 */
final class StaticRandomFields {

    /** A static generator field: {@code owner.name} of type {@code type}, found in {@code jar}. */
    record Field(String jar, String owner, String name, String type) {
        @Override
        public String toString() {
            return owner + "." + name + " (" + type + ", " + jar + ")";
        }
    }

    private static final Set<String> GENERATORS = Set.of(
            "Ljava/util/Random;",
            "Ljava/security/SecureRandom;",
            "Ljava/util/SplittableRandom;",
            "Ljava/util/random/RandomGenerator;");
    private static final int ACC_STATIC = 0x0008;

    private StaticRandomFields() {}

    /** Every static generator field of every class of {@code jars}. */
    static List<Field> in(List<Path> jars) {
        List<Field> found = new ArrayList<>();
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                    ZipEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                        try (InputStream in = zip.getInputStream(entry)) {
                            found.addAll(fields(jar.getFileName().toString(), in.readAllBytes()));
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + jar, e);
            }
        }
        return found;
    }

    /** The static generator fields of one class file. */
    static List<Field> fields(String jar, byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            return List.of();
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNames = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNames[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two entries
                }
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        if (java.util.Arrays.asList(utf8).contains("Lcom/oracle/svm/core/annotate/TargetClass;")) {
            return List.of();
        }
        in.readUnsignedShort(); // access flags
        String owner = utf8[classNames[in.readUnsignedShort()]].replace('/', '.');
        in.readUnsignedShort(); // super class
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) {
            in.readUnsignedShort();
        }
        List<Field> found = new ArrayList<>();
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            int access = in.readUnsignedShort();
            String name = utf8[in.readUnsignedShort()];
            String descriptor = utf8[in.readUnsignedShort()];
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                in.readUnsignedShort();
                in.skipNBytes(in.readInt() & 0xFFFFFFFFL);
            }
            if ((access & ACC_STATIC) != 0 && GENERATORS.contains(descriptor)) {
                found.add(new Field(jar, owner, name, descriptor));
            }
        }
        return found;
    }
}
