package dev.verbs4j.guest.probe;

import java.util.List;

/**
 * The devices libibverbs itself lists. A device that sysfs shows but libibverbs does not has no
 * user-space provider installed, and cannot be used.
 *
 * @param checked false when libibverbs was not asked (a recorded sysfs tree)
 * @param devices the names ibv_get_device_list returned
 * @param error   why libibverbs could not be asked; "" when it could
 */
public record LibibverbsView(boolean checked, List<String> devices, String error) {
    /** Copies the list components, so the record is immutable. */
    public LibibverbsView {
        devices = List.copyOf(devices);
    }

    /**
     * libibverbs was not asked (a recorded tree).
     *
     * @return the view
     */
    public static LibibverbsView notChecked() {
        return new LibibverbsView(false, List.of(), "");
    }

    /**
     * What libibverbs listed.
     *
     * @param devices the device names
     * @return the view
     */
    public static LibibverbsView listed(List<String> devices) {
        return new LibibverbsView(true, devices, "");
    }

    /**
     * libibverbs could not list devices.
     *
     * @param error why
     * @return the view
     */
    public static LibibverbsView failed(String error) {
        return new LibibverbsView(true, List.of(), error);
    }

    /**
     * Whether libibverbs offers a device (or was not asked).
     *
     * @param device the device name
     * @return true when it is listed or nothing was checked
     */
    public boolean offers(String device) {
        return !checked || devices.contains(device);
    }
}
