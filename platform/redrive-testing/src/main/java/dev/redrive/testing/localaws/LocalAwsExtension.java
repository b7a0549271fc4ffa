package dev.redrive.testing.localaws;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** The JUnit 5 extension behind {@link LocalAwsTest}. */
public final class LocalAwsExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        LocalAws.shared();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        LocalAwsTest settings = context.getRequiredTestClass().getAnnotation(LocalAwsTest.class);
        if (settings != null && settings.resetBeforeEach()) {
            LocalAws.shared().reset();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalAws.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return LocalAws.shared();
    }
}
