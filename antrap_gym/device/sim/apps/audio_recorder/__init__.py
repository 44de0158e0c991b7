"""Audio Recorder (`com.dimowner.audiorecorder`): records sound into .m4a files.

- `screens`: the welcome page, the recorder (microphone prompt, record, pause, stop,
  the "Record name" dialog), the records list (rename, delete), its preferences;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).

Records are files in its folder on shared storage,
/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records.
"""

from antrap_gym.device.sim.apps.audio_recorder.app import AudioRecorder

APP = AudioRecorder

__all__ = ["APP", "AudioRecorder"]
