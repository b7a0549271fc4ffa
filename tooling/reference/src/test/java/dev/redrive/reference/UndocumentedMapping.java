package dev.redrive.reference;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** A mapping with one property its author forgot to document: ConfigurationReferenceTest's checker must name it. */
@ConfigMapping(prefix = "fixture")
public interface UndocumentedMapping {

    /** Documented. */
    @WithDefault("1")
    int documented();

    String undocumented();
}
