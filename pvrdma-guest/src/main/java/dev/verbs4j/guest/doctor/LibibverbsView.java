package dev.verbs4j.guest.doctor;

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
    public LibibverbsView {
        devices = List.copyOf(devices);
    }

    public static LibibverbsView notChecked() {
        return new LibibverbsView(false, List.of(), "");
    }

    public static LibibverbsView listed(List<String> devices) {
        return new LibibverbsView(true, devices, "");
    }

    public static LibibverbsView failed(String error) {
        return new LibibverbsView(true, List.of(), error);
    }

    /** True unless libibverbs was asked and did not list this device. */
    public boolean offers(String device) {
        return !checked || devices.contains(device);
    }
}
