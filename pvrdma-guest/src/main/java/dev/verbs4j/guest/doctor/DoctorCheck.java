package dev.verbs4j.guest.doctor;

/**
 * One finding of the doctor.
 *
 * @param name   what was checked, e.g. "kernel" or "rxe0 port 1"
 * @param status OK, WARN or FAIL
 * @param detail what was found
 * @param fix    what to do about it; "" when nothing needs doing
 */
public record DoctorCheck(String name, CheckStatus status, String detail, String fix) {
    static DoctorCheck ok(String name, String detail) {
        return new DoctorCheck(name, CheckStatus.OK, detail, "");
    }

    static DoctorCheck warn(String name, String detail, String fix) {
        return new DoctorCheck(name, CheckStatus.WARN, detail, fix);
    }

    static DoctorCheck fail(String name, String detail, String fix) {
        return new DoctorCheck(name, CheckStatus.FAIL, detail, fix);
    }
}
