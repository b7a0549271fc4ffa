package dev.redrive.cdk.monitoring.internal;

import java.util.List;
import software.amazon.awscdk.services.cloudwatch.AlarmStatusWidget;
import software.amazon.awscdk.services.cloudwatch.IAlarm;
import software.amazon.awscdk.services.cloudwatch.IWidget;

/**
 * The dashboard's alarm status row, of every alarm in a list that may still grow: an {@link AlarmStatusWidget} lists
 * the alarms it is given when it is made, but the dashboard's body is rendered at synthesis, so this widget makes its
 * {@code AlarmStatusWidget} then, of the alarms the list holds by that time (an app's alarms added after the
 * dashboard was made included).
 */
public final class AlarmStatusRow implements IWidget {

    private static final int WIDTH = 24;

    private final String title;
    private final List<? extends IAlarm> alarms;
    private final Number height;
    private Number x;
    private Number y;

    /** A row titled {@code title} of the alarms {@code alarms} holds at synthesis; the list is read, not copied. */
    public AlarmStatusRow(String title, List<? extends IAlarm> alarms) {
        this.title = title;
        this.alarms = alarms;
        this.height = widget(List.of()).getHeight();
    }

    private AlarmStatusWidget widget(List<IAlarm> current) {
        return AlarmStatusWidget.Builder.create()
                .title(title)
                .alarms(current)
                .width(WIDTH)
                .build();
    }

    @Override
    public Number getHeight() {
        return height;
    }

    @Override
    public Number getWidth() {
        return WIDTH;
    }

    @Override
    public void position(Number x, Number y) {
        this.x = x;
        this.y = y;
    }

    @Override
    public List<Object> toJson() {
        AlarmStatusWidget widget = widget(List.copyOf(alarms));
        if (x != null && y != null) {
            widget.position(x, y);
        }
        return widget.toJson();
    }
}
