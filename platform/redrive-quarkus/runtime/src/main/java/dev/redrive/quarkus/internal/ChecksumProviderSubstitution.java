package dev.redrive.quarkus.internal;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.checksums.SdkChecksum;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;

/**
 * For the native image only: the AWS SDK's checksum provider without the AWS Common Runtime (aws-crt, not on the
 * functions' class path). Its methods that build CRT checksums name CRT classes; the native build links every
 * reachable method at build time, so they are replaced by what the SDK itself does when aws-crt is absent: no CRT
 * CRC32C (the SDK then uses the JDK's), and CRC64NVME and the xxHash family refused with the SDK's own message.
 *
 * <p>This replaces quarkus-amazon-services 3.14.1's {@code CrtSubstitutions$Target_CrcChecksumProvider}, which targets
 * the class by its old name ({@code CrcChecksumProvider}, renamed {@code ChecksumProvider} by SDK 2.42) and stops the
 * native build with SDK 2.57.8; the extension's build step removes that class from
 * quarkus-amazon-common ({@code RedriveProcessor}, a {@code RemovedResourceBuildItem}). The extension's 3.15.1 and later carry the same fix; this goes
 * when Redrive can depend on one of them (the registry here serves none of quarkus-amazon-sqs's). The checkout example's NativeClassPathIT
 * checks that this substitution applies and that every member it replaces exists in the SDK.
 */
@TargetClass(
        className = "software.amazon.awssdk.checksums.internal.ChecksumProvider",
        onlyWith = ChecksumProviderSubstitution.AwsCrtAbsent.class)
final class ChecksumProviderSubstitution {

    private ChecksumProviderSubstitution() {}

    @Substitute
    static SdkChecksum createCrtCrc32C() {
        return null;
    }

    @Substitute
    static SdkChecksum crc64NvmeCrtImplementation() {
        throw new RuntimeException("Could not load software.amazon.awssdk.crt.checksums.CRC64NVME. Add dependency on "
                + "'software.amazon.awssdk.crt:aws-crt' module to enable CRC64NVME feature.");
    }

    @Substitute
    static SdkChecksum crtXxHash(ChecksumAlgorithm algorithm) {
        throw new RuntimeException("Could not load software.amazon.awssdk.crt.checksums.XXHash for algorithm: "
                + algorithm.algorithmId() + ". Add dependency on 'software.amazon.awssdk.crt:aws-crt' module.");
    }

    /** Whether the AWS Common Runtime is absent from the class path the image is built from. */
    static final class AwsCrtAbsent implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            try {
                Class.forName("software.amazon.awssdk.crt.CRT", false, AwsCrtAbsent.class.getClassLoader());
                return false;
            } catch (ClassNotFoundException e) {
                return true;
            }
        }
    }
}
