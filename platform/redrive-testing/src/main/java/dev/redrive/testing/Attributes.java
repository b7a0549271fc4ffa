package dev.redrive.testing;

import dev.redrive.core.consumer.MessageAttribute;
import java.util.LinkedHashMap;
import java.util.Map;

/** Message attributes for tests of what a dead letter keeps. */
public final class Attributes {

    private Attributes() {}

    /** One of each kind SQS has: String, Number, Number with a custom type, Binary, Binary with a custom type. */
    public static Map<String, MessageAttribute> everyType() {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        attributes.put("trace", MessageAttribute.ofString("t-1"));
        attributes.put("price", MessageAttribute.ofNumber("12.50"));
        attributes.put("ratio", new MessageAttribute("Number.float", "0.25", null));
        attributes.put("blob", new MessageAttribute("Binary", null, new byte[] {0, 1, 2, (byte) 0xff}));
        attributes.put("image", new MessageAttribute("Binary.png", null, new byte[] {(byte) 0x89, 'P', 'N', 'G'}));
        return attributes;
    }

    /** Ten String attributes, {@code attr-0=v-0} to {@code attr-9=v-9}: SQS's most. */
    public static Map<String, MessageAttribute> ten() {
        Map<String, MessageAttribute> attributes = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            attributes.put("attr-" + i, MessageAttribute.ofString("v-" + i));
        }
        return attributes;
    }
}
